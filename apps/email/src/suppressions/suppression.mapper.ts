import type {
  EmailSuppression,
  EmailSuppressionCoverage,
  EmailSuppressionOrigin,
  EmailSuppressionReason,
  EmailSuppressionScopeType,
} from '@switchboard/contracts';

export interface SuppressionRow {
  id: string;
  workspace_id: string;
  email: string;
  scope_type: EmailSuppressionScopeType;
  reason: EmailSuppressionReason;
  origin: EmailSuppressionOrigin;
  applies_to: EmailSuppressionCoverage;
  source_email_id: string | null;
  source_recipient_id: string | null;
  created_at: Date | string;
}

export const SUPPRESSION_COLUMNS =
  'id, workspace_id, email, scope_type, reason, origin, applies_to, source_email_id, source_recipient_id, created_at';

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
