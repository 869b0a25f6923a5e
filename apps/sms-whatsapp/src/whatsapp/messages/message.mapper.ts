import type { WhatsAppError, WhatsAppEvent, WhatsAppMessage } from '@switchboard/contracts';

/** Who a message's ends are (the SDK's `WhatsAppAddress`). */
export type WhatsAppAddress = WhatsAppMessage['from'];
export type WhatsAppTag = { name: string; value: string };

/**
 * A row of sms_whatsapp.whatsapp_messages as reads select it (`MESSAGE_COLUMNS`), both
 * directions. `content_kind` names the SDK field the content is read back under (`template`,
 * `text`, `image`, ..., `contact_cards`), and `content` holds it in its read shape; a template's
 * is `{slug, category, language, components}`.
 */
export interface WhatsAppMessageRow {
  id: string;
  workspace_id: string;
  direction: 'outbound' | 'inbound';
  status: WhatsAppMessage['status'];
  number_id: string;
  business_phone: string | null;
  contact_phone: string | null;
  contact_bsuid: string | null;
  contact_username: string | null;
  contact_display_name: string | null;
  content_kind: string;
  content: unknown;
  category: string | null;
  in_reply_to_message_id: string | null;
  interactive_reply: unknown;
  unsupported: unknown;
  /** The standing reaction of the business on this message (`{emoji, from}`), if any. */
  reaction: unknown;
  /** The standing reaction of the contact on this message (`{emoji, from}`), if any. */
  inbound_reaction: unknown;
  last_error_code: string | null;
  last_error_description: string | null;
  last_error_meta_code: number | null;
  last_error_at: Date | string | null;
  tags: WhatsAppTag[];
  metadata: Record<string, unknown>;
  created_at: Date | string;
  sent_at: Date | string | null;
  delivered_at: Date | string | null;
  read_at: Date | string | null;
}

export const MESSAGE_COLUMNS = `id, workspace_id, direction, status, number_id, business_phone,
  contact_phone, contact_bsuid, contact_username, contact_display_name, content_kind, content,
  category, in_reply_to_message_id, interactive_reply, unsupported, reaction, inbound_reaction,
  last_error_code, last_error_description, last_error_meta_code, last_error_at, tags, metadata,
  created_at, sent_at, delivered_at, read_at`;

/** A row of sms_whatsapp.whatsapp_message_events. */
export interface WhatsAppEventRow {
  id: string;
  type: string;
  occurred_at: Date | string;
  error: WhatsAppError | null;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** The business number's side of a message. */
function businessAddress(row: WhatsAppMessageRow): WhatsAppAddress {
  return row.business_phone ? { phone_number: row.business_phone } : {};
}

/** The contact's side: username and display name are known on what they sent only. */
function contactAddress(row: WhatsAppMessageRow): WhatsAppAddress {
  const address: { -readonly [K in keyof WhatsAppAddress]: WhatsAppAddress[K] } = {};
  if (row.contact_phone) address.phone_number = row.contact_phone;
  if (row.contact_bsuid) address.bsuid = row.contact_bsuid;
  if (row.direction === 'inbound') {
    if (row.contact_username) address.username = row.contact_username;
    if (row.contact_display_name) address.display_name = row.contact_display_name;
  }
  return address;
}

/** `from` and `to` of a message (and of every event about it). */
export function addressesOf(row: WhatsAppMessageRow): {
  from: WhatsAppAddress;
  to: WhatsAppAddress;
} {
  return row.direction === 'outbound'
    ? { from: businessAddress(row), to: contactAddress(row) }
    : { from: contactAddress(row), to: businessAddress(row) };
}

/** `last_error` of a message from its columns; null when it has none. */
export function lastErrorOf(row: WhatsAppMessageRow): WhatsAppError | null {
  if (!row.last_error_code) return null;
  return {
    code: row.last_error_code,
    description: row.last_error_description ?? '',
    meta_error_code: row.last_error_meta_code === null ? null : String(row.last_error_meta_code),
    occurred_at: iso(row.last_error_at ?? row.created_at) as string,
  };
}

/** The content as read back: an authentication template's filled-in values never leave. */
function readContent(row: WhatsAppMessageRow): unknown {
  if (row.content_kind !== 'template') return row.content;
  const template = row.content as Record<string, unknown>;
  return template.category === 'authentication' ? { ...template, components: [] } : template;
}

/** A message as the API shows it (the SDK's `WhatsAppMessage`). */
export function toWhatsAppMessage(row: WhatsAppMessageRow): WhatsAppMessage {
  const message: Record<string, unknown> = {
    id: row.id,
    direction: row.direction,
    ...addressesOf(row),
    [row.content_kind]: readContent(row),
  };
  if (row.in_reply_to_message_id) message.in_reply_to_message_id = row.in_reply_to_message_id;
  if (row.interactive_reply) message.interactive_reply = row.interactive_reply;
  if (row.unsupported) message.unsupported = row.unsupported;
  const reactions = [row.reaction, row.inbound_reaction].filter(Boolean);
  if (reactions.length > 0) message.reactions = reactions;
  message.status = row.status;
  const lastError = lastErrorOf(row);
  if (lastError) message.last_error = lastError;
  Object.assign(message, {
    created_at: iso(row.created_at),
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
    read_at: iso(row.read_at),
    cost: null,
    tags: row.tags,
    metadata: row.metadata,
  });
  return message as WhatsAppMessage;
}

/** One step of a timeline (the SDK's `WhatsAppEvent`). */
export function toWhatsAppEvent(row: WhatsAppEventRow): WhatsAppEvent {
  const event: WhatsAppEvent = {
    id: row.id,
    type: row.type,
    occurred_at: iso(row.occurred_at) as string,
  };
  if (row.error) event.error = row.error;
  return event;
}
