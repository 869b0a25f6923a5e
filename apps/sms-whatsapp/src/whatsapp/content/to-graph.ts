import { CommonErrors, phoneNumber } from '@switchboard/contracts';
import type { WhatsAppContactCardSend, WhatsAppSendContent } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { GraphMessageBody } from '../graph/whatsapp-graph';
import { toGraphInteractive } from './to-graph-interactive';
import { toGraphTemplate } from './to-graph-template';
import type { ResolvedGraphTemplate } from './to-graph-template';

/** Where a Graph message goes and what it quotes. */
export interface GraphTarget {
  /** E.164 (`+31612345678`) or a business-scoped user ID (`US.1349...`), sent as Meta's `recipient`. */
  to: string;
  /** The wamid of the message quoted (`context.message_id`). */
  replyToWamid?: string;
  /** The template a template send resolved to; required for template content. */
  template?: ResolvedGraphTemplate;
}

/** Meta's contact card: `phones` with `wa_id` when the number is E.164, so it renders a chat button. */
function graphContact(card: WhatsAppContactCardSend): Record<string, unknown> {
  const { phone_numbers: phones, ...rest } = card;
  return {
    ...rest,
    ...(phones && {
      phones: phones.map((phone) => {
        const e164 = phoneNumber(phone.phone_number);
        return {
          phone: phone.phone_number,
          ...(phone.type !== undefined && { type: phone.type }),
          ...(e164 && /^\+\d+$/.test(phone.phone_number.trim()) && { wa_id: e164.slice(1) }),
        };
      }),
    }),
  };
}

/** The content's own field of Meta's body (`text: {body}`, `image: {link, caption}`...). */
function graphContent(content: WhatsAppSendContent, target: GraphTarget): Record<string, unknown> {
  switch (content.kind) {
    case 'template':
      if (!target.template)
        throw new AppError(CommonErrors.InternalError, {
          message: 'A template send reached the Graph mapping without its resolved template.',
        });
      return { template: toGraphTemplate(content.template, target.template) };
    case 'text':
      return { text: { body: content.text.body, preview_url: content.text.preview_url ?? false } };
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
    case 'document': {
      const media = (content as unknown as Record<string, { url: string }>)[content.kind];
      const { url, ...rest } = media;
      return { [content.kind]: { link: url, ...rest } };
    }
    case 'location':
      return { location: content.location };
    case 'interactive':
      return { interactive: toGraphInteractive(content.interactive) };
    case 'contact_cards':
      return { contacts: content.contact_cards.map(graphContact) };
  }
}

/** Meta's `type` of each content kind. */
const GRAPH_TYPE: Record<WhatsAppSendContent['kind'], string> = {
  template: 'template',
  text: 'text',
  image: 'image',
  video: 'video',
  audio: 'audio',
  sticker: 'sticker',
  document: 'document',
  location: 'location',
  interactive: 'interactive',
  contact_cards: 'contacts',
};

/** How Meta is told the person: `to` for a phone number (digits), `recipient` for a BSUID. */
export function graphAddress(to: string): { to: string } | { recipient: string } {
  return to.startsWith('+') ? { to: to.slice(1) } : { recipient: to };
}

/** The body of Meta's `POST /{phone_number_id}/messages` for one send's content. */
export function toGraphMessage(
  content: WhatsAppSendContent,
  target: GraphTarget,
): GraphMessageBody {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...graphAddress(target.to),
    ...(target.replyToWamid !== undefined && { context: { message_id: target.replyToWamid } }),
    type: GRAPH_TYPE[content.kind],
    ...graphContent(content, target),
  };
}
