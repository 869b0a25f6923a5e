/**
 * Webhook endpoints (reference section 17, contract section 8): where a workspace receives the
 * events every product emits, signed with Standard Webhooks. Shapes follow the SDK's
 * `WebhookEndpoint`, `WebhookEndpointCreated`, `WebhookEndpointUpdate`, `WebhookTestResponse`
 * and `WebhookAttempt`; replay is ours (the SDK has no method for it yet).
 */

export const WebhookSubjects = {
  CreateEndpoint: 'webhooks.endpoint.create',
  ListEndpoints: 'webhooks.endpoint.list',
  GetEndpoint: 'webhooks.endpoint.get',
  UpdateEndpoint: 'webhooks.endpoint.update',
  DeleteEndpoint: 'webhooks.endpoint.delete',
  RotateSecret: 'webhooks.endpoint.rotate_secret',
  TestEndpoint: 'webhooks.endpoint.test',
  ListAttempts: 'webhooks.attempt.list',
  Replay: 'webhooks.endpoint.replay',
} as const;

/** The event catalog (SDK `WebhookEventType`): what an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'domain.failed',
  'domain.verified',
  'email.accepted',
  'email.bounced',
  'email.canceled',
  'email.clicked',
  'email.complained',
  'email.deferred',
  'email.delivered',
  'email.list_unsubscribed',
  'email.opened',
  'email.out_of_band_bounce',
  'email.processed',
  'email.received',
  'email.rejected',
  'email.scheduled',
  'email.unsubscribed',
  'email_mailbox.message_delivered',
  'email_mailbox.message_failed',
  'email_mailbox.message_received',
  'email_mailbox.message_sent',
  'email_mailbox.suspended',
  'email_mailbox.thread_created',
  'email_suppression.created',
  'preference.deleted',
  'preference.granted',
  'preference.revoked',
  'sms.accepted',
  'sms.delivered',
  'sms.expired',
  'sms.failed',
  'sms.received',
  'sms.rejected',
  'sms.sent',
  'sms.undelivered',
  'sms_suppression.created',
  'verify.attempt.delivered',
  'verify.attempt.sent',
  'verify.attempt.undelivered',
  'verify.verification.created',
  'verify.verification.failed',
  'verify.verification.verified',
  'voice_call.answered',
  'voice_call.ended',
  'voice_call.initiated',
  'whatsapp.accepted',
  'whatsapp.delivered',
  'whatsapp.failed',
  'whatsapp.reacted',
  'whatsapp.read',
  'whatsapp.received',
  'whatsapp.rejected',
  'whatsapp.sent',
  'whatsapp_suppression.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Limits of the SDK's type comments. */
export const WEBHOOK_LIMITS = {
  urlLength: 2048,
  descriptionLength: 256,
  eventsPerEndpoint: 100,
  validSecrets: 5,
  /** Hours an old secret keeps signing after a rotation. */
  rotationOverlapHours: 24,
  /** Bytes of a receiver's answer kept on an attempt and returned by a test. */
  responseBodyBytes: 1024,
  attemptsPerList: 100,
} as const;

export type WebhookEndpointStatus = 'active' | 'degraded' | 'paused';

export interface WebhookEndpoint {
  id: string;
  url: string;
  description?: string;
  events: string[];
  status: WebhookEndpointStatus;
  created_at: string;
  updated_at: string;
}

/** Only the 201 of a create carries the secret. */
export interface WebhookEndpointCreated extends WebhookEndpoint {
  secret: string;
}

/** `POST /v1/webhooks` after the gateway's validation (events deduplicated, url checked). */
export interface CreateWebhookEndpointRequest {
  url: string;
  events: string[];
  description?: string;
}

export interface ListWebhookEndpointsRequest {
  sort: 'created_at' | 'url';
  order: 'asc' | 'desc';
  limit: number;
  starting_after?: string;
  ending_before?: string;
  include_total?: boolean;
}

export interface WebhookEndpointIdRequest {
  webhook_id: string;
}

/** Only the fields sent change; `events` replaces the set. */
export interface UpdateWebhookEndpointRequest extends WebhookEndpointIdRequest {
  url?: string;
  description?: string;
  events?: string[];
  status?: 'active' | 'paused';
}

export interface RotateWebhookSecretReply {
  secret: string;
}

export interface TestWebhookEndpointRequest extends WebhookEndpointIdRequest {
  event_type?: string;
}

export interface WebhookTestResult {
  status: 'delivered' | 'failed';
  response_status_code: number | null;
  response_body?: string;
  response_duration_ms: number;
  error?: string;
}

export interface ListWebhookAttemptsRequest extends WebhookEndpointIdRequest {
  limit: number;
  /** ISO 8601: attempts made before / after this instant. */
  before?: string;
  after?: string;
}

export interface WebhookAttempt {
  id: string;
  event_id: string | null;
  event_type: string;
  status: 'delivered' | 'pending' | 'failed';
  url: string;
  response_status_code: number | null;
  response_body?: string;
  response_duration_ms: number;
  attempted_at: string;
  /** Ours beside the SDK's shape: why nothing was answered (refused address, time-out...). */
  error?: string;
}

/** `POST /v1/webhooks/{webhook_id}/replay`: events of [since, until) not delivered to it. */
export interface ReplayWebhookEventsRequest extends WebhookEndpointIdRequest {
  /** ISO 8601; default 24 hours ago. */
  since?: string;
  /** ISO 8601; default now. */
  until?: string;
}

export interface WebhookReplayResult {
  /** Events queued for redelivery, each under a new `webhook-id`. */
  queued: number;
  since: string;
  until: string;
}
