/**
 * SMS messages (the SDK's `bird.sms`): subjects, the request and reply types in the SDK's
 * shapes, and the limits of a send. The sms-whatsapp service owns them.
 */
export const SmsSubjects = {
  SendMessage: 'sms.message.send',
  SendBatch: 'sms.message.send-batch',
  GetMessage: 'sms.message.get',
  ListMessages: 'sms.message.list',
  ListEvents: 'sms.message.list-events',
  /** Another service's send (a verification passcode): a system template, never from the gateway. */
  SendSystemMessage: 'sms.message.send-system',
} as const;

export type SmsCategory = 'transactional' | 'marketing' | 'authentication' | 'service';
export const SMS_CATEGORIES = [
  'transactional',
  'marketing',
  'authentication',
  'service',
] as const satisfies readonly SmsCategory[];

export type SmsDirection = 'outbound' | 'inbound';

export const SMS_MESSAGE_STATUSES = [
  'scheduled',
  'accepted',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'rejected',
  'canceled',
  'expired',
  'received',
] as const;
export type SmsMessageStatus = (typeof SMS_MESSAGE_STATUSES)[number];

/** The normalised failure reasons (`last_error.code`, the `error_code` filter): an open enum. */
export const SMS_ERROR_CODES = [
  'invalid_destination',
  'unreachable',
  'blocked_by_carrier',
  'blocked_by_recipient',
  'landline_unreachable',
  'content_rejected',
  'sender_unregistered',
  'recipient_opted_out',
  'provider_unavailable',
  'insufficient_balance',
  'unknown',
] as const;
export type SmsErrorCode = (typeof SMS_ERROR_CODES)[number] | (string & {});

/** The body is text the recipient gets but reads never return (`category` authentication). */
export const SMS_REDACTED_TEXT = '**REDACTED**';

/** Limits of a send (SDK: SmsMessageSendRequest, Tag). */
export const SMS_LIMITS = {
  batch: 100,
  tags: 20,
  tagName: 32,
  tagValue: 64,
  metadataBytes: 2048,
  templateParametersBytes: 16 * 1024,
  /** Messages are kept 30 days: a list's `created_after` is raised to this bound. */
  retentionDays: 30,
} as const;

/**
 * Fields of a send the SDK declares as preview features: any of them is answered 422
 * `SMSUnsupportedFeature` (`options.track_clicks` only when true).
 */
export const SMS_PREVIEW_FIELDS = [
  'validity_period',
  'media_urls',
  'messaging_profile_id',
  'scheduled_at',
  'broadcast_id',
  'campaign_id',
  'audience_id',
  'contact_id',
  'topic_id',
  'personalization',
] as const;

export interface SmsTag {
  name: string;
  value: string;
}

export interface SmsSegments {
  count: number;
  encoding: 'GSM_7BIT' | 'UCS2';
  /** Unicode code points of the body. */
  characters: number;
}

export interface SmsError {
  code: SmsErrorCode;
  description: string;
  carrier_error_code?: string | null;
  occurred_at: string;
}

export interface SmsMessage {
  id: string;
  direction: SmsDirection;
  status: SmsMessageStatus;
  to: string;
  from: string;
  text?: string;
  category?: SmsCategory | null;
  segments: SmsSegments;
  cost?: null;
  tags?: SmsTag[];
  metadata?: Record<string, unknown>;
  options?: { smart_encoding: boolean };
  carrier?: string;
  mcc_mnc?: string;
  last_error?: SmsError | null;
  created_at: string;
  sent_at?: string | null;
  delivered_at?: string | null;
}

/** A send as the gateway forwards it: the body, its shape checked, every value rule the service's. */
export interface SmsSendInput {
  body: unknown;
}

/**
 * A send another service asks for (the verify service's passcodes): one of the system templates,
 * from `from` when given (it must still be a sender the workspace holds for the category), else
 * the workspace's sender for the template's category. Every rule of a send applies, opt-outs
 * and preferences included.
 */
export interface SystemSmsSendRequest {
  to: string;
  from?: string;
  template: { slug: string; language?: string; parameters: Record<string, unknown> };
  metadata?: Record<string, unknown>;
}

export interface SmsBatchReply {
  data: SmsMessage[];
  summary: { accepted_count: number };
}

/** The types of a message's timeline (open: readers accept others). */
export const SMS_TIMELINE_EVENT_TYPES = [
  'sms.accepted',
  'sms.sent',
  'sms.delivered',
  'sms.undelivered',
  'sms.failed',
  'sms.expired',
  'sms.rejected',
  'sms.received',
] as const;

export interface SmsEvent {
  id: string;
  type: string;
  occurred_at: string;
  carrier?: string;
  mcc_mnc?: string;
  error?: SmsError | null;
}

export interface ListSmsMessagesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  created_after?: string;
  created_before?: string;
  direction?: SmsDirection;
  status?: string[];
  error_code?: string[];
  category?: SmsCategory;
  to?: string;
  from?: string;
  /** `name` or `name:value`; a message must carry every one. */
  tag?: string[];
}

export interface ListSmsEventsRequest {
  message_id: string;
  type?: string;
}
