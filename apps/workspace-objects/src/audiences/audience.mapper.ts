import type { Audience } from '@switchboard/contracts';

export const AUDIENCE_COLUMNS = 'id, workspace_id, name, description, type, created_at, updated_at';

export interface AudienceRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  type: 'static';
  created_at: Date;
  updated_at: Date;
}

export function toAudienceDto(row: AudienceRow): Audience {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
