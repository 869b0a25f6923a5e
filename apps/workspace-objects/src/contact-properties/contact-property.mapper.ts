import type { ContactProperty, ContactPropertyType } from '@switchboard/contracts';

export const PROPERTY_COLUMNS =
  'id, workspace_id, key, type, fallback_value, archived, created_at, updated_at';

export interface PropertyRow {
  id: string;
  workspace_id: string;
  key: string;
  type: ContactPropertyType;
  fallback_value: unknown;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
}

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
