import type { TemplateStatus } from '@messagebird/sdk';

/** Language statuses under which Meta serves the language: the one a send can use. */
export const SENDABLE_LANGUAGE_STATUS = 'approved';
/** Language statuses still under Meta's review. */
const IN_REVIEW = new Set(['pending', 'in_appeal']);

/** Meta's status of a template in one language (`APPROVED`, `PAUSED`...) in the API's lowercase. */
export function languageStatusOf(metaStatus: string): string {
  return metaStatus.trim().toLowerCase();
}

/**
 * A `message_template_status_update` webhook's `event` as a language status; undefined for an
 * event that reports no change of status (`FLAGGED` warns of a pause that comes as its own event).
 */
export function languageStatusOfEvent(event: string): string | undefined {
  const status = event.trim().toLowerCase();
  if (status === 'flagged' || status === '') return undefined;
  if (status === 'reinstated') return 'approved';
  return status;
}

/**
 * The template's status from its languages' (the SDK's `TemplateStatus`): `active` when one is
 * approved, else `pending` while one is in review, `rejected` when every one was refused, else
 * `inactive` (paused, disabled, archived, deleted...). A synced template always exists at Meta,
 * so it is never `draft`.
 */
export function templateStatusOf(languageStatuses: readonly string[]): TemplateStatus {
  if (languageStatuses.includes(SENDABLE_LANGUAGE_STATUS)) return 'active';
  if (languageStatuses.some((status) => IN_REVIEW.has(status))) return 'pending';
  if (languageStatuses.length > 0 && languageStatuses.every((status) => status === 'rejected'))
    return 'rejected';
  return 'inactive';
}

/** Whether a language status means Meta is still reviewing it. */
export function inReview(status: string): boolean {
  return IN_REVIEW.has(status);
}
