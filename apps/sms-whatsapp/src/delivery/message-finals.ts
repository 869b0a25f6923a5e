import type { SmsEventRecord } from '../messages';
import { smsEvent } from '../messages';
import { receiptOutcome, worstStatus } from './receipt-outcome';
import type { FinalStatus, ReceiptOutcome } from './receipt-outcome';
import type { FinalUpdate, ReceiptTarget } from './receipts.repository';

/** The subject of a message's `sms.*` events. */
export function subjectOf(target: ReceiptTarget) {
  return {
    messageId: target.id,
    workspaceId: target.workspace_id,
    to: target.to_address,
    from: target.from_address,
    tags: target.tags,
    metadata: target.metadata,
  };
}

/**
 * The message's final state once every part has a final receipt; undefined before. `timedOut`:
 * the wait for receipts is over (SMS_RECEIPT_TIMEOUT_SECONDS), so a part without a final one
 * counts as expired with that description, and a part that did fail still names the message's
 * failure (one REJECTD part of two, the other never receipted, is `failed`, not `expired`).
 */
export function finalOf(
  target: ReceiptTarget,
  now: Date,
  timedOut?: { description: string },
): FinalUpdate | undefined {
  if (target.status !== 'sent') return undefined;
  const parts = target.part_stats ?? [];
  const complete = parts.length >= target.parts && parts.every((part) => part.final);
  if (!complete && !timedOut) return undefined;
  const expired: ReceiptOutcome = {
    final: true,
    status: 'expired',
    code: 'unknown',
    description: timedOut?.description ?? '',
  };
  const outcomes = parts.map((part) => ({
    part,
    outcome: part.final ? receiptOutcome(part.stat ?? '') : expired,
  }));
  if (parts.length < target.parts)
    outcomes.push({ part: { stat: null, err: null, final: false }, outcome: expired });
  const statuses = outcomes.flatMap(({ outcome }) => (outcome.final ? [outcome.status] : []));
  if (statuses.length === 0) return undefined;
  const status = worstStatus(statuses);
  const worst = outcomes.find(({ outcome }) => outcome.final && outcome.status === status);
  const outcome = worst?.outcome;
  if (!outcome?.final) return undefined;
  return {
    id: target.id,
    status,
    at: now,
    code: outcome.code,
    description: outcome.code ? outcome.description : null,
    carrier_code: outcome.code ? (worst?.part.err ?? null) : null,
  };
}

/** The `sms.<status>` event of a final update. */
export function finalEvent(target: ReceiptTarget, final: FinalUpdate): SmsEventRecord {
  const error = final.code
    ? {
        code: final.code,
        description: final.description ?? '',
        carrier_error_code: final.carrier_code,
        occurred_at: final.at.toISOString(),
      }
    : undefined;
  return smsEvent(`sms.${final.status as FinalStatus}`, subjectOf(target), final.at, {
    carrier: target.carrier,
    error,
  });
}
