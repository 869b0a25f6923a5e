import type { ContactProperty } from '@switchboard/contracts';
import type { PropertyRow } from './contact-properties.repository';

export function toPropertyDto(row: PropertyRow): ContactProperty {
  return {
    id: row.id,
    key: row.key,
    type: row.type,
    fallback_value: row.fallback_value ?? null,
    archived: row.archived,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
