import type { WhatsAppEventList, WhatsAppMessage, WhatsappSendParams } from '@messagebird/sdk';

/**
 * WhatsApp messages (the SDK's `bird.whatsapp`: `send`, `get`, `list`, `listEvents`): subjects,
 * the request and reply types in the SDK's own shapes. The sms-whatsapp service owns them.
 */
export const WhatsAppMessageSubjects = {
  SendMessage: 'whatsapp.message.send',
  GetMessage: 'whatsapp.message.get',
  ListMessages: 'whatsapp.message.list',
  ListEvents: 'whatsapp.message.list-events',
} as const;

export type { WhatsAppEventList, WhatsAppMessage, WhatsappSendParams };
export type WhatsAppMessageStatus = WhatsAppMessage['status'];
/** One step of a message's timeline (`GET /v1/whatsapp/messages/{id}/events`). */
export type WhatsAppEvent = WhatsAppEventList['data'][number];
/** `last_error` of a message, `error` of a failed event. */
export type WhatsAppError = NonNullable<WhatsAppMessage['last_error']>;

/** Every status of the SDK's `WhatsAppMessageStatus` (`scheduled` and `canceled` are reserved). */
export const WHATSAPP_MESSAGE_STATUSES = [
  'scheduled',
  'accepted',
  'sent',
  'delivered',
  'failed',
  'rejected',
  'canceled',
  'received',
] as const satisfies readonly WhatsAppMessageStatus[];

/**
 * The normalised failure reasons of `last_error.code` (an open enum: Meta's codes we do not map
 * become `undeliverable`, with Meta's own code kept in `meta_error_code`).
 */
export const WHATSAPP_ERROR_CODES = [
  'insufficient_balance',
  'price_not_found',
  'internal_error',
  'undeliverable',
  'service_window_expired',
  'rate_limited',
  'recipient_suppressed',
  'media_rejected',
] as const;

export const WHATSAPP_TEMPLATE_CATEGORIES = ['authentication', 'marketing', 'utility'] as const;

/** Limits of the SDK's type comments. */
export const WHATSAPP_MESSAGE_LIMITS = {
  /** Messages (and their timelines) are kept 30 days: a list's `created_after` is raised to this. */
  retentionDays: 30,
  /** Meta's message id is kept 15 days: quoting, reacting and read receipts need it. */
  providerIdDays: 15,
  /** The customer-service window a contact's inbound message opens. */
  serviceWindowHours: 24,
} as const;

/** The send body, as the gateway forwards it (its rules are the service's). */
export interface WhatsAppSendInput {
  body: unknown;
}

export interface ListWhatsAppMessagesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  created_after?: string;
  created_before?: string;
  status?: string[];
  direction?: 'outbound' | 'inbound';
  to?: string;
  from?: string;
  /** Deprecated by the SDK: the contact's phone number, either direction. */
  phone_number?: string;
  bsuid?: string;
  category?: string;
  /** `name` or `name:value`; a message must carry every one. */
  tag?: string[];
}

export interface ListWhatsAppEventsRequest {
  message_id: string;
  type?: string;
}
