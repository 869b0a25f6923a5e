import { CommonErrors } from '@switchboard/contracts';
import type { WhatsAppMessageContent, WhatsAppSendContent } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/** The template a send resolved to, as a message reads it back. */
export interface EchoedTemplate {
  slug: string;
  /** The category the message is priced at (the language's, as Meta applies it). */
  category: string;
  /** The canonical BCP-47 tag of the variant sent. */
  language: string;
}

/**
 * What an outbound message reads back (`WhatsAppMessage`) for the content it was sent with: the
 * send's own shape, less what WhatsApp does not report (`text.preview_url`), and for a template
 * the resolved slug, category and language (required then), with no values on an
 * authentication template.
 */
export function echoContent(
  content: WhatsAppSendContent,
  template?: EchoedTemplate,
): WhatsAppMessageContent {
  switch (content.kind) {
    case 'template': {
      if (!template)
        throw new AppError(CommonErrors.InternalError, {
          message: 'A template message was echoed without the template it resolved to.',
        });
      const components =
        template.category.toLowerCase() === 'authentication'
          ? []
          : (content.template.components ?? []);
      return { template: { ...template, components } };
    }
    case 'text':
      return { text: { body: content.text.body } };
    case 'image':
      return { image: content.image };
    case 'video':
      return { video: content.video };
    case 'audio':
      return { audio: content.audio };
    case 'sticker':
      return { sticker: content.sticker };
    case 'document':
      return { document: content.document };
    case 'location':
      return { location: content.location };
    case 'interactive':
      return { interactive: content.interactive };
    case 'contact_cards':
      return { contact_cards: content.contact_cards };
  }
}
