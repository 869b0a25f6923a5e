import type { WebhookEventType } from '../webhooks/webhooks';

/**
 * The events of WhatsApp messages the sms-whatsapp service writes to its outbox (webhooks, later
 * stats); each is a type of the webhook catalog and also a row of the message's timeline.
 * Payloads are the SDK's `EventWhatsApp*` (`{type, timestamp, data}`).
 */
export const WHATSAPP_MESSAGE_EVENT_TYPES = [
  'whatsapp.accepted',
  'whatsapp.sent',
  'whatsapp.delivered',
  'whatsapp.read',
  'whatsapp.failed',
  'whatsapp.rejected',
  'whatsapp.received',
] as const satisfies readonly WebhookEventType[];
export type WhatsAppMessageEventType = (typeof WHATSAPP_MESSAGE_EVENT_TYPES)[number];
