import type { WebhookEventType } from '../webhooks/webhooks';

/**
 * The events the email service writes to its outbox (the bus carries them to webhooks and, later,
 * stats): message and recipient events on a message's timeline, domain verification, suppressions.
 * Each is a type of the webhook catalog; the payload of each is the SDK's `WebhookEvent` for it.
 */
export const EMAIL_EVENT_TYPES = [
  'email.accepted',
  'email.scheduled',
  'email.canceled',
  'email.processed',
  'email.rejected',
  'email.deferred',
  'email.delivered',
  'email.bounced',
  'email.opened',
  'email.clicked',
  'email.unsubscribed',
  'email.list_unsubscribed',
  'domain.verified',
  'domain.failed',
  'email_suppression.created',
] as const satisfies readonly WebhookEventType[];
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

/** The events of a message's timeline (`GET /v1/email/messages/{id}/events`). */
export type EmailMessageEventType = Extract<EmailEventType, `email.${string}`>;
