import { WhatsAppContentErrors as E } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { checkInteractive } from './interactive.rules';
import { validateWhatsAppSend } from './send-validation';

const to = '+31612345678';
const img = 'https://cdn.example.org/a.jpg';
const reply = (slug: string, text: string) => ({
  type: 'quick_reply',
  quick_reply: { slug, text },
});
const cta = (text: string) => ({
  type: 'cta_url',
  cta_url: { text, url: 'https://shop.example.org/x' },
});
const row = (slug: string, text: string) => ({ slug, text });

function refusal(interactive: unknown): AppError {
  try {
    validateWhatsAppSend({ to, interactive });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the interactive content to be refused');
}
const params = (error: AppError) => (error.details ?? []).map((detail) => detail.param);

describe(checkInteractive.name, () => {
  it('accepts a button message with a media header, footer and three quick replies', () => {
    const interactive = {
      type: 'button',
      header: { type: 'image', url: img },
      body_text: 'Pick one',
      footer_text: 'small print',
      buttons: [reply('a', 'Yes'), reply('b', 'No'), reply('c', 'Later')],
    };
    expect(validateWhatsAppSend({ to, interactive }).content).toEqual({
      kind: 'interactive',
      interactive,
    });
  });

  it('holds a button message to 3 quick replies with unique labels and slugs of at most 256', () => {
    const four = refusal({
      type: 'button',
      body_text: 'b',
      buttons: [reply('a', 'A'), reply('b', 'B'), reply('c', 'C'), reply('d', 'D')],
    });
    expect([four.code, four.param]).toEqual([
      E.WhatsAppInteractiveLimitExceeded,
      'interactive.buttons',
    ]);
    const twice = refusal({
      type: 'button',
      body_text: 'b',
      buttons: [reply('a', 'Same'), reply('b', 'Same')],
    });
    expect([twice.code, twice.param]).toEqual([
      E.WhatsAppInteractiveDuplicateLabel,
      'interactive.buttons[1].quick_reply.text',
    ]);
    expect(
      params(refusal({ type: 'button', body_text: 'b', buttons: [reply('x'.repeat(257), 'A')] })),
    ).toEqual(['interactive.buttons[0].quick_reply.slug']);
    // A reply names the option by its slug: two options with one slug cannot be told apart.
    expect(
      params(
        refusal({ type: 'button', body_text: 'b', buttons: [reply('s', 'A'), reply('s', 'B')] }),
      ),
    ).toEqual(['interactive.buttons[1].quick_reply.slug']);
    expect(
      params(
        refusal({
          type: 'list',
          body_text: 'b',
          list: {
            button_text: 'Open',
            sections: [
              { title: 'One', rows: [row('DUP', 'x')] },
              { title: 'Two', rows: [row('DUP', 'y')] },
            ],
          },
        }),
      ),
    ).toEqual(['interactive.list.sections[1].rows[0].slug']);
    expect(params(refusal({ type: 'button', body_text: 'b', buttons: [cta('Go')] }))).toEqual([
      'interactive.buttons[0].type',
    ]);
  });

  it('holds body_text to 1024 characters, except on a list (4096)', () => {
    expect(
      params(refusal({ type: 'button', body_text: 'x'.repeat(1025), buttons: [reply('a', 'A')] })),
    ).toEqual(['interactive.body_text']);
    const list = { button_text: 'Menu', sections: [{ title: 'S', rows: [row('a', 'A')] }] };
    expect(
      validateWhatsAppSend({ to, interactive: { type: 'list', body_text: 'x'.repeat(4096), list } })
        .content.kind,
    ).toBe('interactive');
    expect(params(refusal({ type: 'list', body_text: 'x'.repeat(4097), list }))).toEqual([
      'interactive.body_text',
    ]);
  });

  it('holds a list to 10 rows in total, labels unique across sections, slugs of at most 200, a text header only', () => {
    const sections = [
      { title: 'One', rows: Array.from({ length: 6 }, (_, i) => row(`a${i}`, `A${i}`)) },
      { title: 'Two', rows: Array.from({ length: 5 }, (_, i) => row(`b${i}`, `B${i}`)) },
    ];
    const eleven = refusal({
      type: 'list',
      body_text: 'b',
      list: { button_text: 'Menu', sections },
    });
    expect([eleven.code, eleven.param]).toEqual([
      E.WhatsAppInteractiveLimitExceeded,
      'interactive.list.sections',
    ]);
    const repeated = refusal({
      type: 'list',
      body_text: 'b',
      list: {
        button_text: 'Menu',
        sections: [
          { title: 'One', rows: [row('a', 'Same')] },
          { title: 'Two', rows: [row('b', 'Same')] },
        ],
      },
    });
    expect([repeated.code, repeated.param]).toEqual([
      E.WhatsAppInteractiveDuplicateLabel,
      'interactive.list.sections[1].rows[0].text',
    ]);
    expect(
      params(
        refusal({
          type: 'list',
          body_text: 'b',
          list: { button_text: 'M', sections: [{ title: 'S', rows: [row('x'.repeat(201), 'A')] }] },
        }),
      ),
    ).toEqual(['interactive.list.sections[0].rows[0].slug']);
    expect(
      params(
        refusal({
          type: 'list',
          header: { type: 'image', url: img },
          body_text: 'b',
          list: { button_text: 'M', sections: [{ title: 'S', rows: [row('a', 'A')] }] },
        }),
      ),
    ).toEqual(['interactive.header.type']);
  });

  it('accepts a carousel of 2 to 10 cards carrying the same buttons, and no header or footer', () => {
    const card = {
      header: { type: 'video', url: img },
      body_text: 'one\ntwo',
      buttons: [reply('a', 'Buy'), reply('b', 'Info')],
    };
    expect(
      validateWhatsAppSend({
        to,
        interactive: { type: 'carousel', body_text: 'Look', cards: [card, card] },
      }).content.kind,
    ).toBe('interactive');
    expect(refusal({ type: 'carousel', body_text: 'b', cards: [card] }).param).toBe(
      'interactive.cards',
    );
    const eleven = refusal({
      type: 'carousel',
      body_text: 'b',
      cards: Array.from({ length: 11 }, () => card),
    });
    expect(eleven.code).toBe(E.WhatsAppInteractiveLimitExceeded);
    expect(
      params(
        refusal({
          type: 'carousel',
          body_text: 'b',
          footer_text: 'f',
          header: { type: 'text', text: 'h' },
          cards: [card, card],
        }),
      ),
    ).toEqual(['interactive.header', 'interactive.footer_text']);
    const mismatch = refusal({
      type: 'carousel',
      body_text: 'b',
      cards: [card, { ...card, buttons: [cta('Go')] }, { ...card, buttons: [reply('a', 'Buy')] }],
    });
    expect(mismatch.code).toBe(E.WhatsAppInteractiveCarouselButtonsMismatch);
    expect(params(mismatch)).toEqual([
      'interactive.cards[1].buttons',
      'interactive.cards[2].buttons',
    ]);
  });

  it('refuses a carousel card that mixes kinds, has two link buttons, a document header or three line breaks', () => {
    const card = { header: { type: 'image', url: img }, buttons: [cta('Go')] };
    expect(
      params(
        refusal({
          type: 'carousel',
          body_text: 'b',
          cards: [card, { ...card, buttons: [cta('Go'), reply('a', 'A')] }],
        }),
      ),
    ).toContain('interactive.cards[1].buttons');
    expect(
      refusal({
        type: 'carousel',
        body_text: 'b',
        cards: [{ ...card, buttons: [cta('A'), cta('B')] }, card],
      }).code,
    ).toBe(E.WhatsAppInteractiveLimitExceeded);
    expect(
      params(
        refusal({
          type: 'carousel',
          body_text: 'b',
          cards: [card, { ...card, header: { type: 'document', url: img } }],
        }),
      ),
    ).toEqual(['interactive.cards[1].header.type']);
    expect(
      params(
        refusal({
          type: 'carousel',
          body_text: 'b',
          cards: [card, { ...card, body_text: 'a\nb\nc\nd' }],
        }),
      ),
    ).toEqual(['interactive.cards[1].body_text']);
  });

  it('takes only body_text on the two request kinds, and refuses a field of another kind', () => {
    for (const type of ['location_request_message', 'request_contact_info'])
      expect(
        validateWhatsAppSend({ to, interactive: { type, body_text: 'Share?' } }).content,
      ).toEqual({
        kind: 'interactive',
        interactive: { type, body_text: 'Share?' },
      });
    expect(
      params(
        refusal({
          type: 'request_contact_info',
          body_text: 'b',
          header: { type: 'text', text: 'h' },
          footer_text: 'f',
          buttons: [],
        }),
      ),
    ).toEqual(['interactive.buttons', 'interactive.header', 'interactive.footer_text']);
    expect(params(refusal({ type: 'flow', body_text: 'b' }))).toEqual(['interactive.type']);
  });

  it('takes a cta_url with a label of at most 20 and an http(s) address', () => {
    expect(
      validateWhatsAppSend({
        to,
        interactive: {
          type: 'cta_url',
          body_text: 'b',
          cta_url: { text: 'Open', url: 'http://shop.example.org' },
        },
      }).content.kind,
    ).toBe('interactive');
    expect(
      params(
        refusal({
          type: 'cta_url',
          body_text: 'b',
          cta_url: { text: 'x'.repeat(21), url: 'ftp://x.example.org' },
        }),
      ),
    ).toEqual(['interactive.cta_url.text', 'interactive.cta_url.url']);
    expect(params(refusal({ type: 'cta_url', body_text: 'b' }))).toEqual(['interactive.cta_url']);
  });
});
