import type { OutboxEvent } from '@switchboard/platform';
import { VERIFICATION_ATTEMPT_METADATA_KEY } from '@switchboard/contracts';
import { VERIFICATION_METADATA_KEY } from './passcode-channels';

/** A channel's final word on one passcode message. */
export interface DeliveryOutcomeEvent {
  workspaceId: string;
  messageId: string;
  /** The attempt the message carries (messages sent before it was carried have none). */
  attemptId: string | null;
  delivered: boolean;
  reason: string | null;
  error: string | null;
  carrier: string | null;
  mccMnc: string | null;
  at: string;
}

/** Final events per channel, and the attempt failure reason each stands for (null: delivered). */
const FINAL_EVENTS: Record<string, string | null> = {
  'sms.delivered': null,
  'sms.failed': 'carrier_rejected',
  'sms.undelivered': 'undelivered',
  'sms.expired': 'delivery_timeout',
  // Accepted, then refused before the carrier (an opt-out or a sender withdrawn meanwhile).
  'sms.rejected': 'channel_unavailable',
  'email.delivered': null,
  'email.bounced': 'hard_bounce',
  // Refused at processing (an opt-out covering transactional mail, say): never sent.
  'email.rejected': 'undelivered',
  'whatsapp.delivered': null,
  'whatsapp.failed': 'undelivered',
  'whatsapp.rejected': 'channel_unavailable',
};

/**
 * The outcome an event tells about a passcode message, or undefined for any other event (most
 * of what the channels emit: only messages carrying a verification's id in their metadata count).
 */
export function outcomeOf(event: OutboxEvent): DeliveryOutcomeEvent | undefined {
  if (!(event.type in FINAL_EVENTS)) return undefined;
  const data = event.data as Record<string, unknown>;
  const metadata = data.metadata as Record<string, unknown> | null | undefined;
  if (!metadata || typeof metadata[VERIFICATION_METADATA_KEY] !== 'string') return undefined;
  const messageId = (data.sms_id ?? data.email_id ?? data.whatsapp_id) as string | undefined;
  if (!messageId) return undefined;
  let reason = FINAL_EVENTS[event.type];
  if (event.type === 'email.bounced' && data.bounce_type === 'soft') reason = 'soft_bounce';
  const error = data.error as { description?: string } | undefined;
  return {
    workspaceId: event.workspaceId,
    messageId,
    attemptId: (metadata[VERIFICATION_ATTEMPT_METADATA_KEY] as string | undefined) ?? null,
    delivered: reason === null,
    reason,
    error: error?.description ?? (data.bounce_description as string | undefined) ?? null,
    carrier: (data.carrier as string | undefined) ?? null,
    mccMnc: (data.mcc_mnc as string | undefined) ?? null,
    at: event.timestamp,
  };
}
