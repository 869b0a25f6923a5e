import type { Audience } from '@switchboard/contracts';
import type { AudienceRow } from './audiences.repository';

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
