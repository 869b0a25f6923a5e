import type { SmsMessageStatus } from '@switchboard/contracts';

/** What a receipt's `stat` means for its part: a final outcome, or a step on the way. */
export type ReceiptOutcome =
  | { final: true; status: FinalStatus; code: string | null; description: string }
  | { final: false; event: 'sms.carrier_accepted' | 'sms.enroute' | 'sms.carrier_status' };

export type FinalStatus = Extract<
  SmsMessageStatus,
  'delivered' | 'expired' | 'undelivered' | 'failed'
>;

/** Worst outcome of a message's parts wins: one failed part fails the message. */
const SEVERITY: Record<FinalStatus, number> = {
  delivered: 0,
  expired: 1,
  undelivered: 2,
  failed: 3,
};

export function worstStatus(statuses: FinalStatus[]): FinalStatus {
  return statuses.reduce((worst, status) => (SEVERITY[status] > SEVERITY[worst] ? status : worst));
}

/**
 * The long names some carriers write in `stat:` (the `message_state` TLV's names, SMPP 3.4
 * section 5.2.28) to the short ones of appendix B.
 */
const LONG_STATES: Record<string, string> = {
  DELIVERED: 'DELIVRD',
  UNDELIVERABLE: 'UNDELIV',
  UNDELIVERED: 'UNDELIV',
  REJECTED: 'REJECTD',
  ACCEPTED: 'ACCEPTD',
};

/**
 * SMPP receipt states (SMPP 3.4 appendix B, their long names, SMPP 5.0's `SKIPPED` and the
 * `FAILED` of Kannel-style gateways) to our statuses and `last_error.code`. Anything else is a step on the way, not an
 * outcome: the message waits for its final receipt, or expires.
 */
export function receiptOutcome(stat: string): ReceiptOutcome {
  const state = stat.trim().toUpperCase();
  switch (LONG_STATES[state] ?? state) {
    case 'DELIVRD':
      return { final: true, status: 'delivered', code: null, description: '' };
    case 'EXPIRED':
      return {
        final: true,
        status: 'expired',
        code: 'unreachable',
        description: 'the carrier could not deliver the message within its validity period',
      };
    case 'UNDELIV':
      return {
        final: true,
        status: 'undelivered',
        code: 'unreachable',
        description: 'the carrier reported the message undeliverable (UNDELIV)',
      };
    case 'REJECTD':
      return {
        final: true,
        status: 'failed',
        code: 'blocked_by_carrier',
        description: 'the carrier rejected the message (REJECTD)',
      };
    case 'DELETED':
      return {
        final: true,
        status: 'failed',
        code: 'unknown',
        description: 'the carrier deleted the message before delivery (DELETED)',
      };
    case 'UNKNOWN':
      return {
        final: true,
        status: 'failed',
        code: 'unknown',
        description: 'the carrier reported the message in an unknown state (UNKNOWN)',
      };
    case 'SKIPPED':
      return {
        final: true,
        status: 'failed',
        code: 'unknown',
        description: 'the carrier accepted the message but never transmitted it (SKIPPED)',
      };
    case 'FAILED':
      return {
        final: true,
        status: 'failed',
        code: 'unknown',
        description: 'the carrier reported the message failed (FAILED)',
      };
    case 'ACCEPTD':
      return { final: false, event: 'sms.carrier_accepted' };
    case 'ENROUTE':
      return { final: false, event: 'sms.enroute' };
    default:
      return { final: false, event: 'sms.carrier_status' };
  }
}
