import type { EmailSuppression } from '@switchboard/contracts';
import type { SuppressionRow } from './suppressions.repository';

const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** A stored row as the API shows it; every suppression is currently scoped to its workspace. */
export function toSuppressionDto(row: SuppressionRow): EmailSuppression {
  return {
    id: row.id,
    email: row.email,
    scope: { type: row.scope_type, id: row.workspace_id },
    reason: row.reason,
    origin: row.origin,
    applies_to: row.applies_to,
    source_email_id: row.source_email_id,
    source_recipient_id: row.source_recipient_id,
    created_at: iso(row.created_at),
  };
}
