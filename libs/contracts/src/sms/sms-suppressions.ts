import type { PageRequest } from '../pagination';

/**
 * SMS suppressions (`bird.smsSuppressions`): one episode per opt-out period of a (originator,
 * destination) pair. Opened by a STOP keyword, a carrier's opt-out or a manual add; a pair is
 * blocked while any of its episodes is in force.
 */

export const SmsSuppressionSubjects = {
  List: 'sms_whatsapp.sms_suppression.list',
  Get: 'sms_whatsapp.sms_suppression.get',
  Add: 'sms_whatsapp.sms_suppression.add',
  Remove: 'sms_whatsapp.sms_suppression.remove',
} as const;

export const SMS_SUPPRESSION_REASONS = ['keyword_stop', 'carrier_opted_out', 'manual'] as const;
export type SmsSuppressionReason = (typeof SMS_SUPPRESSION_REASONS)[number];
export type SmsSuppressionOrigin = 'keyword' | 'dlr_event' | 'api_key' | 'user';
export type SmsSuppressionEndReason = 'keyword_start' | 'api_key' | 'user' | 'carrier_cleared';

export interface SmsSuppression {
  id: string;
  destination: string;
  originator: string;
  reason: SmsSuppressionReason;
  origin: SmsSuppressionOrigin;
  applies_to: 'all' | 'non_transactional';
  blocking: boolean;
  source_sms_id: string | null;
  effective_at: string;
  ended_at: string | null;
  ended_reason: SmsSuppressionEndReason | null;
  ended_effective_at: string | null;
  source_end_sms_id: string | null;
  created_at: string;
  last_asserted_at: string;
}

/** In-force episodes only, most recent opt-out first, keyset cursors. */
export interface ListSmsSuppressionsRequest extends Pick<
  PageRequest,
  'limit' | 'starting_after' | 'ending_before'
> {
  /** Exact E.164. */
  destination?: string;
  originator?: string;
  reason?: SmsSuppressionReason;
}

export interface AddSmsSuppressionRequest {
  destination: string;
  originator: string;
}

/** `created` false: a manual episode for the pair was in force and is returned unchanged (200). */
export interface AddSmsSuppressionReply {
  created: boolean;
  suppression: SmsSuppression;
}

export interface SmsSuppressionIdRequest {
  suppression_id: string;
}
