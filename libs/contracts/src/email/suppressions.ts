/**
 * Email suppressions (reference section 6): addresses the workspace does not send to, each with
 * the reason it was added and which mail that reason blocks. Subjects are in `EmailSubjects`
 * (`CreateSuppression`, `ListSuppressions`, `GetSuppression`, `DeleteSuppression`).
 */

export const EMAIL_SUPPRESSION_REASONS = [
  'hard_bounce',
  'complaint',
  'unsubscribe',
  'manual',
] as const;
export type EmailSuppressionReason = (typeof EMAIL_SUPPRESSION_REASONS)[number];

/** Where a suppression came from. */
export type EmailSuppressionOrigin =
  | 'bounce_event'
  | 'complaint_event'
  | 'unsubscribe_event'
  | 'unsubscribe_link'
  | 'api_key'
  | 'user';

/** Which mail a suppression blocks: `all`, or marketing only (`non_transactional`). */
export type EmailSuppressionCoverage = 'all' | 'non_transactional';

/** Scope types the list filter accepts; every suppression is currently workspace-wide. */
export const EMAIL_SUPPRESSION_SCOPE_TYPES = [
  'workspace',
  'category',
  'audience',
  'topic',
  'contact',
  'domain',
] as const;
export type EmailSuppressionScopeType = (typeof EMAIL_SUPPRESSION_SCOPE_TYPES)[number];

/**
 * The policy: hard bounces and manual suppressions block all mail; complaints and unsubscribes
 * block marketing only, so receipts and password resets still reach those addresses.
 */
export const EMAIL_SUPPRESSION_COVERAGE: Readonly<
  Record<EmailSuppressionReason, EmailSuppressionCoverage>
> = {
  hard_bounce: 'all',
  complaint: 'non_transactional',
  unsubscribe: 'non_transactional',
  manual: 'all',
};

export interface EmailSuppression {
  id: string;
  /** Trimmed and lowercased. */
  email: string;
  scope: { type: EmailSuppressionScopeType; id: string };
  reason: EmailSuppressionReason;
  origin: EmailSuppressionOrigin;
  applies_to: EmailSuppressionCoverage;
  /** The message whose event added it (a bounce, a complaint), or null. */
  source_email_id: string | null;
  source_recipient_id: string | null;
  created_at: string;
}

/** `POST /v1/email/suppressions`; the gateway has trimmed and lowercased the address. */
export interface CreateEmailSuppressionRequest {
  email: string;
}

/** `created` false: the address already had a manual suppression, returned as it is (200). */
export interface CreateEmailSuppressionReply {
  created: boolean;
  suppression: EmailSuppression;
}

/** Newest first, keyset cursors; no `include_total` (a high-volume data list). */
export interface ListEmailSuppressionsRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  /** Case-insensitive prefix of the address. */
  email?: string;
  reason?: EmailSuppressionReason;
  scope_type?: EmailSuppressionScopeType;
}

export interface EmailSuppressionIdRequest {
  suppression_id: string;
}
