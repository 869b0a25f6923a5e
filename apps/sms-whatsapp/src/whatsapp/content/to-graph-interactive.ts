import type { WhatsAppInteractiveSend } from '@switchboard/contracts';

type Header = NonNullable<WhatsAppInteractiveSend['header']>;
type Button = NonNullable<WhatsAppInteractiveSend['buttons']>[number];
type Card = NonNullable<WhatsAppInteractiveSend['cards']>[number];

/** `{type: 'text', text}` or `{type: 'image', image: {link}}`. */
function graphHeader(header: Header): Record<string, unknown> {
  if (header.type === 'text') return { type: 'text', text: header.text };
  return { type: header.type, [header.type]: { link: header.url } };
}

const ctaAction = (cta: { text: string; url: string }) => ({
  name: 'cta_url',
  parameters: { display_text: cta.text, url: cta.url },
});

function graphCard(card: Card, index: number): Record<string, unknown> {
  const link = card.buttons.find((button: Button) => button.type === 'cta_url')?.cta_url;
  return {
    card_index: index,
    type: link ? 'cta_url' : 'button',
    header: graphHeader(card.header),
    ...(card.body_text !== undefined && { body: { text: card.body_text } }),
    action: link
      ? ctaAction(link)
      : {
          buttons: card.buttons.map((button: Button) => ({
            type: 'quick_reply',
            quick_reply: { id: button.quick_reply?.slug, title: button.quick_reply?.text },
          })),
        },
  };
}

/** The kind's own `action`: reply buttons, the list's menu, a link, the cards, or the ask. */
function graphAction(interactive: WhatsAppInteractiveSend): Record<string, unknown> {
  switch (interactive.type) {
    case 'button':
      return {
        buttons: (interactive.buttons ?? []).map((button) => ({
          type: 'reply',
          reply: { id: button.quick_reply?.slug, title: button.quick_reply?.text },
        })),
      };
    case 'list':
      return {
        button: interactive.list?.button_text,
        sections: (interactive.list?.sections ?? []).map((section) => ({
          title: section.title,
          rows: section.rows.map((row) => ({
            id: row.slug,
            title: row.text,
            ...(row.description !== undefined && { description: row.description }),
          })),
        })),
      };
    case 'cta_url':
      return ctaAction(interactive.cta_url ?? { text: '', url: '' });
    case 'carousel':
      return { cards: (interactive.cards ?? []).map(graphCard) };
    case 'location_request_message':
      return { name: 'send_location' };
    case 'request_contact_info':
      return { name: 'request_contact_info' };
  }
}

/** Meta's `interactive` object. */
export function toGraphInteractive(interactive: WhatsAppInteractiveSend): Record<string, unknown> {
  return {
    type: interactive.type,
    ...(interactive.header && { header: graphHeader(interactive.header) }),
    body: { text: interactive.body_text },
    ...(interactive.footer_text !== undefined && { footer: { text: interactive.footer_text } }),
    action: graphAction(interactive),
  };
}
