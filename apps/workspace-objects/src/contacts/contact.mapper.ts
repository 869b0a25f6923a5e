import type { AudienceRef, Contact } from '@switchboard/contracts';

export const CONTACT_COLUMNS =
  'id, workspace_id, email, phone_number, external_id, first_name, last_name, data, created_at, updated_at';

export interface ContactRow {
  id: string;
  workspace_id: string;
  email: string | null;
  phone_number: string | null;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

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
