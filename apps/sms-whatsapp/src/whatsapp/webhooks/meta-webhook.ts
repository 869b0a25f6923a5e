import type { EntityManager } from 'typeorm';

/**
 * Meta's `whatsapp_business_account` webhook payloads, as Meta posts them (the fields the
 * platform reads). A payload holds entries per account, each with changes per `field`.
 */
export interface MetaWebhookPayload {
  object: string;
  entry: MetaWebhookEntry[];
}

export interface MetaWebhookEntry {
  /** The WABA id. */
  id: string;
  changes: MetaWebhookChange[];
}

export interface MetaWebhookChange {
  /** `messages`, `message_template_status_update`, `phone_number_quality_update`, `account_update`, ... */
  field: string;
  value: Record<string, unknown>;
}

/** The `value` of a `messages` change: inbound messages and statuses of one number. */
export interface MetaMessagesValue {
  messaging_product: 'whatsapp';
  metadata: { display_phone_number: string; phone_number_id: string };
  contacts?: MetaContact[];
  messages?: MetaInboundMessage[];
  statuses?: MetaStatus[];
  errors?: MetaError[];
}

export interface MetaContact {
  profile?: { name?: string; username?: string };
  wa_id?: string;
  /** The business-scoped user id (BSUID), when Meta sends one. */
  user_id?: string;
}

export interface MetaInboundMessage {
  from: string;
  from_user_id?: string;
  id: string;
  timestamp: string;
  type: string;
  context?: { from?: string; id?: string };
  text?: { body: string };
  image?: MetaInboundMedia;
  video?: MetaInboundMedia;
  audio?: MetaInboundMedia & { voice?: boolean };
  sticker?: MetaInboundMedia & { animated?: boolean };
  document?: MetaInboundMedia & { filename?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
  contacts?: Array<Record<string, unknown>>;
  interactive?: {
    type: string;
    button_reply?: { id: string; title: string };
    list_reply?: { id: string; title: string; description?: string };
  };
  button?: { payload?: string; text?: string };
  reaction?: { message_id: string; emoji?: string };
  errors?: MetaError[];
}

export interface MetaInboundMedia {
  id: string;
  mime_type?: string;
  sha256?: string;
  caption?: string;
}

export interface MetaStatus {
  /** The wamid of our outbound message (or reaction). */
  id: string;
  status: string;
  timestamp: string;
  recipient_id?: string;
  recipient_user_id?: string;
  conversation?: Record<string, unknown>;
  pricing?: Record<string, unknown>;
  errors?: MetaError[];
}

export interface MetaError {
  code: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

/** A connected number a webhook change was addressed to (`metadata.phone_number_id`). */
export interface ConnectedNumber {
  id: string;
  workspaceId: string;
  businessAccountId: string;
  phoneNumberId: string;
  phoneNumber: string | null;
}

/**
 * Records the inbound side of one `messages` change (messages, reactions, the service window,
 * media to fetch, `whatsapp.received` events) inside the webhook processor's transaction.
 * Re-applying the same change records nothing new (Meta retries a webhook until it gets a 200).
 */
export interface InboundMessagesSink {
  record(manager: EntityManager, number: ConnectedNumber, value: MetaMessagesValue): Promise<void>;
}

/** The injection token of the service's `InboundMessagesSink`. */
export const WHATSAPP_INBOUND_SINK = Symbol('WHATSAPP_INBOUND_SINK');
