import { AppError } from '@switchboard/platform';

/*
 * INTERIM BRIDGE to the content helper's rules (`validateWhatsAppSend`, `checkTemplateParameters`,
 * `toGraphMessage` in ../../content): replaced by them once they land on main. Until then it
 * accepts template and text sends only, with `to` in E.164 or as a BSUID.
 */

export type WhatsAppRecipient =
  { kind: 'phone_number'; phoneNumber: string } | { kind: 'bsuid'; bsuid: string };

export interface WhatsAppSendDraft {
  to: WhatsAppRecipient;
  from?: string;
  content: { kind: string } & Record<string, unknown>;
  inReplyToMessageId?: string;
  tags: Array<{ name: string; value: string }>;
  metadata: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function validateWhatsAppSend(body: unknown): WhatsAppSendDraft {
  if (!isObject(body)) throw AppError.validation([{ param: 'body', message: 'must be an object' }]);
  const to = typeof body.to === 'string' ? body.to.trim() : '';
  const recipient: WhatsAppRecipient | undefined = /^\+[1-9]\d{6,14}$/.test(to)
    ? { kind: 'phone_number', phoneNumber: to }
    : /^[A-Z]{2}\.\d{6,}$/.test(to)
      ? { kind: 'bsuid', bsuid: to }
      : undefined;
  if (!recipient)
    throw AppError.validation([
      { param: 'to', message: 'must be E.164 or a business-scoped user id' },
    ]);
  const kinds = ['template', 'text'].filter((kind) => body[kind] !== undefined);
  if (kinds.length !== 1 || !isObject(body[kinds[0]]))
    throw AppError.validation([{ param: 'template', message: 'exactly one of template, text' }]);
  const kind = kinds[0];
  if (kind === 'text' && typeof (body.text as Record<string, unknown>).body !== 'string')
    throw AppError.validation([{ param: 'text.body', message: 'must be a string' }]);
  return {
    to: recipient,
    from: typeof body.from === 'string' ? body.from : undefined,
    content: { kind, [kind]: body[kind] },
    inReplyToMessageId:
      typeof body.in_reply_to_message_id === 'string' ? body.in_reply_to_message_id : undefined,
    tags: Array.isArray(body.tags) ? (body.tags as WhatsAppSendDraft['tags']) : [],
    metadata: isObject(body.metadata) ? body.metadata : {},
  };
}

export function checkTemplateParameters(
  _metaComponents: Array<Record<string, unknown>>,
  _sendComponents?: unknown[],
): void {}

export function checkTemplateRecipient(_category: string, _to: WhatsAppRecipient): void {}

export function toGraphMessage(
  to: string,
  content: WhatsAppSendDraft['content'],
  template?: { metaName: string; language: string },
): Record<string, unknown> {
  if (content.kind === 'text') {
    const text = content.text as { body: string; preview_url?: boolean };
    return { messaging_product: 'whatsapp', to, type: 'text', text };
  }
  const send = content.template as { components?: unknown[] };
  return {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: {
      name: template?.metaName,
      language: { code: template?.language },
      ...(send.components ? { components: send.components } : {}),
    },
  };
}
