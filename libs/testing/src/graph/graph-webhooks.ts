import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookPostOptions, WebhookPostResult } from './graph-stand-in.types';

/**
 * Meta's `whatsapp_business_account` webhook payloads, built in the shapes Meta posts (webhooks
 * reference: `messages` with `statuses[]` or `messages[]`, `message_template_status_update`),
 * and posted signed as Meta signs them.
 */

/** Where a `messages` change comes from: the business number and its account. */
export interface WebhookNumber {
  wabaId: string;
  phoneNumberId: string;
  /** Digits as Meta sends them in `metadata.display_phone_number` (`15550100000`). */
  displayPhoneNumber: string;
}

/** What every inbound message builder takes besides its content. */
export interface InboundBase extends WebhookNumber {
  /** The user's WhatsApp id (digits, no `+`). */
  from: string;
  profileName?: string;
  /** Default: a fresh `wamid.…`. */
  wamid?: string;
  /** Unix seconds (default now). */
  timestamp?: number;
  /** The message replied to (`context.id`). */
  context?: { id: string; from?: string };
  /** The user's business-scoped user id (BSUID), when Meta sends one. */
  userId?: string;
}

export interface MetaStatusError {
  code: number;
  title?: string;
  message?: string;
  details?: string;
}

/** A fresh id in the form Meta uses (`wamid.` + base64). */
export function newWamid(): string {
  return `wamid.${randomBytes(27).toString('base64')}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `{object: 'whatsapp_business_account', entry: [{id, changes: [{value, field}]}]}`. */
export function webhookEnvelope(wabaId: string, field: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, changes: [{ value, field }] }],
  };
}

function messagesValue(number: WebhookNumber, rest: Record<string, unknown>) {
  return webhookEnvelope(number.wabaId, 'messages', {
    messaging_product: 'whatsapp',
    metadata: {
      display_phone_number: number.displayPhoneNumber,
      phone_number_id: number.phoneNumberId,
    },
    ...rest,
  });
}

/** A `statuses[]` change for one outbound wamid: `sent`, `delivered`, `read` or `failed`. */
export function statusPayload(
  input: WebhookNumber & {
    wamid: string;
    status: 'sent' | 'delivered' | 'read' | 'failed' | (string & {});
    /** The user's WhatsApp id (digits). */
    recipient: string;
    recipientUserId?: string;
    timestamp?: number;
    errors?: MetaStatusError[];
    /** `pricing.category` on sent/delivered (default `utility`). */
    category?: string;
  },
) {
  const status: Record<string, unknown> = {
    id: input.wamid,
    status: input.status,
    timestamp: String(input.timestamp ?? nowSeconds()),
    recipient_id: input.recipient,
  };
  if (input.recipientUserId) status.recipient_user_id = input.recipientUserId;
  if (input.status === 'sent' || input.status === 'delivered') {
    const category = input.category ?? 'utility';
    status.conversation = {
      id: `conv-${input.recipient}`,
      ...(input.status === 'sent' ? { expiration_timestamp: String(nowSeconds() + 86_400) } : {}),
      origin: { type: category },
    };
    status.pricing = { billable: true, pricing_model: 'PMP', category, type: 'regular' };
  }
  if (input.errors)
    status.errors = input.errors.map((error) => ({
      code: error.code,
      title: error.title ?? error.message ?? 'Error',
      message: error.message ?? error.title ?? 'Error',
      error_data: { details: error.details ?? error.message ?? 'Error' },
      href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
    }));
  return messagesValue(input, { statuses: [status] });
}

function inbound(base: InboundBase, type: string, content: Record<string, unknown>) {
  const message: Record<string, unknown> = {
    from: base.from,
    id: base.wamid ?? newWamid(),
    timestamp: String(base.timestamp ?? nowSeconds()),
    type,
    ...content,
  };
  if (base.userId) message.from_user_id = base.userId;
  if (base.context)
    message.context = { from: base.context.from ?? base.displayPhoneNumber, id: base.context.id };
  return messagesValue(base, {
    contacts: [
      {
        profile: { name: base.profileName ?? 'Test User' },
        wa_id: base.from,
        ...(base.userId ? { user_id: base.userId } : {}),
      },
    ],
    messages: [message],
  });
}

/** An inbound `text` message. */
export function inboundTextPayload(input: InboundBase & { text: string }) {
  return inbound(input, 'text', { text: { body: input.text } });
}

/** An inbound media message; the media itself is fetched with `GET /{mediaId}` (seed it with `addMedia`). */
export function inboundMediaPayload(
  input: InboundBase & {
    kind: 'image' | 'document' | 'audio' | 'video' | 'sticker';
    mediaId: string;
    mimeType: string;
    sha256: string;
    caption?: string;
    filename?: string;
    voice?: boolean;
  },
) {
  const media: Record<string, unknown> = {
    mime_type: input.mimeType,
    sha256: input.sha256,
    id: input.mediaId,
  };
  if (input.caption !== undefined) media.caption = input.caption;
  if (input.kind === 'document' && input.filename !== undefined) media.filename = input.filename;
  if (input.kind === 'audio' && input.voice !== undefined) media.voice = input.voice;
  return inbound(input, input.kind, { [input.kind]: media });
}

/** A user's reaction to `messageId`; no `emoji` (Meta sends none) means the reaction was removed. */
export function inboundReactionPayload(input: InboundBase & { messageId: string; emoji?: string }) {
  const reaction: Record<string, unknown> = { message_id: input.messageId };
  if (input.emoji) reaction.emoji = input.emoji;
  return inbound(input, 'reaction', { reaction });
}

/** A tap on a reply button or a list row of an interactive message (`context.id` is that message). */
export function inboundInteractiveReplyPayload(
  input: InboundBase & {
    reply:
      | { type: 'button_reply'; id: string; title: string }
      | { type: 'list_reply'; id: string; title: string; description?: string };
  },
) {
  const { type, ...reply } = input.reply;
  return inbound(input, 'interactive', { interactive: { type, [type]: reply } });
}

/** A `message_template_status_update` change (`event`: APPROVED, REJECTED, PAUSED, DISABLED, ...). */
export function templateStatusPayload(input: {
  wabaId: string;
  templateId: string;
  name: string;
  language: string;
  event: string;
  reason?: string;
  category?: string;
}) {
  const value: Record<string, unknown> = {
    event: input.event,
    message_template_id: Number(input.templateId),
    message_template_name: input.name,
    message_template_language: input.language,
    reason: input.reason ?? 'NONE',
  };
  if (input.category) value.message_template_category = input.category;
  const payload = webhookEnvelope(input.wabaId, 'message_template_status_update', value);
  return { ...payload, entry: payload.entry.map((entry) => ({ ...entry, time: nowSeconds() })) };
}

/** `sha256=` + hex HMAC-SHA256 of the raw body with the app secret: Meta's `X-Hub-Signature-256`. */
export function signWebhook(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** POSTs a payload as Meta does: JSON, signed over the exact bytes sent. */
export async function postWebhook(
  url: string,
  payload: unknown,
  options: WebhookPostOptions,
): Promise<WebhookPostResult> {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'facebookexternalua',
  };
  if (!options.unsigned)
    headers['x-hub-signature-256'] = signWebhook(
      raw,
      options.badSignature ? `${options.appSecret}-not` : options.appSecret,
    );
  const response = await fetch(url, { method: 'POST', headers, body: raw });
  return { status: response.status, body: await response.text() };
}
