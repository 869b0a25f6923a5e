import type { AudienceRef, Contact } from '@switchboard/contracts';
import type { ContactRow, ContactWrite } from './contacts.repository';

export function toContactDto(row: ContactRow, audiences?: AudienceRef[]): Contact {
  return {
    id: row.id,
    email: row.email,
    phone_number: row.phone_number,
    first_name: row.first_name,
    last_name: row.last_name,
    external_id: row.external_id,
    data: row.data,
    ...(audiences ? { audiences } : {}),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** A stored contact as the row a write takes (every column but the timestamps). */
export function contactWrite(row: ContactRow): ContactWrite {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    email: row.email,
    phone_number: row.phone_number,
    external_id: row.external_id,
    first_name: row.first_name,
    last_name: row.last_name,
    data: row.data,
  };
}
