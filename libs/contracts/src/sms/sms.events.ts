import type { WebhookEventType } from '../webhooks/webhooks';

/**
 * The events of SMS messages the sms-whatsapp service writes to its outbox (webhooks, later
 * stats); each is a type of the webhook catalog and also a row of the message's timeline.
 */
export const SMS_EVENT_TYPES = [
  'sms.accepted',
  'sms.sent',
  'sms.delivered',
  'sms.undelivered',
  'sms.failed',
  'sms.expired',
  'sms.rejected',
  'sms.received',
] as const satisfies readonly WebhookEventType[];
export type SmsEventType = (typeof SMS_EVENT_TYPES)[number];
