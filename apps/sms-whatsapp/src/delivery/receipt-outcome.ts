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

/** SMPP receipt states (SMPP 3.4 appendix B) to our statuses and `last_error.code`. */
export function receiptOutcome(stat: string): ReceiptOutcome {
  switch (stat.trim().toUpperCase()) {
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
    case 'ACCEPTD':
      return { final: false, event: 'sms.carrier_accepted' };
    case 'ENROUTE':
      return { final: false, event: 'sms.enroute' };
    default:
      return { final: false, event: 'sms.carrier_status' };
  }
}
