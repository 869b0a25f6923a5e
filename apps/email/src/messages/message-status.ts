import type { EmailMessageStatus, EmailRecipientStatus } from '@switchboard/contracts';

/** Recipient counts by state, as the message row keeps them. */
export interface RecipientCounts {
  accepted: number;
  processed: number;
  deferred: number;
  delivered: number;
  bounced: number;
  complained: number;
  rejected: number;
}

/**
 * The message's aggregate status, from its recipients (spec: "Other aggregate transitions: not
 * shown"; the SDK's `EmailMessageStatus`). While any recipient is still on its way the message is
 * `accepted`, `processed` or `deferred` (the least advanced wins); once every recipient is
 * final, one outcome for all names it, and a mix with at least one delivery is `partial_failure`.
 */
export function aggregateStatus(
  counts: RecipientCounts,
  lifecycle: { canceled: boolean; scheduled: boolean },
): EmailMessageStatus {
  if (lifecycle.canceled) return 'canceled';
  if (lifecycle.scheduled) return 'scheduled';
  if (counts.accepted > 0) return 'accepted';
  if (counts.processed > 0) return 'processed';
  if (counts.deferred > 0) return 'deferred';
  const finals: Array<[EmailRecipientStatus & EmailMessageStatus, number]> = [
    ['delivered', counts.delivered],
    ['bounced', counts.bounced],
    ['complained', counts.complained],
    ['rejected', counts.rejected],
  ];
  const present = finals.filter(([, count]) => count > 0);
  if (present.length === 0) return 'accepted';
  if (present.length === 1) return present[0][0];
  if (counts.delivered > 0 || counts.complained > 0) return 'partial_failure';
  return counts.bounced > 0 ? 'bounced' : 'rejected';
}
