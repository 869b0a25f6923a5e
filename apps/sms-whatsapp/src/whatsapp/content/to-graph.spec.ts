import fc from 'fast-check';
import type { WhatsAppSendContent } from '@switchboard/contracts';
import { validateWhatsAppSend } from './send-validation';
import { checkTemplateParameters } from './template-parameters';
import { toGraphMessage } from './to-graph';
import type { ResolvedGraphTemplate } from './to-graph-template';

const to = '+31612345678';
const img = 'https://cdn.example.org/a.jpg';
const contentOf = (body: Record<string, unknown>): WhatsAppSendContent =>
  validateWhatsAppSend({ to, ...body }).content;
const graph = (body: Record<string, unknown>, template?: ResolvedGraphTemplate) =>
  toGraphMessage(contentOf(body), { to, template });

describe(toGraphMessage.name, () => {
  it('addresses a phone number by to and a BSUID by recipient, quoting by context', () => {
    expect(
      toGraphMessage(contentOf({ text: { body: 'Hi' } }), { to, replyToWamid: 'wamid.X' }),
    ).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '31612345678',
      context: { message_id: 'wamid.X' },
      type: 'text',
      text: { body: 'Hi', preview_url: false },
    });
    expect(toGraphMessage(contentOf({ text: { body: 'Hi' } }), { to: 'US.1349' })).toMatchObject({
      recipient: 'US.1349',
    });
  });

  it('sends media by link with its caption, filename and voice flag', () => {
    expect(graph({ image: { url: img, caption: 'c' } })).toMatchObject({
      type: 'image',
      image: { link: img, caption: 'c' },
    });
    expect(graph({ audio: { url: img, voice: true } })).toMatchObject({
      type: 'audio',
      audio: { link: img, voice: true },
    });
    expect(graph({ document: { url: img, filename: 'a.pdf' } })).toMatchObject({
      type: 'document',
      document: { link: img, filename: 'a.pdf' },
    });
    expect(graph({ sticker: { url: img } })).toMatchObject({
      type: 'sticker',
      sticker: { link: img },
    });
  });

  it('sends a location and contact cards as Meta shapes them', () => {
    expect(
      graph({ location: { latitude: 52.1, longitude: 4.3, name: 'HQ', address: 'Main St 1' } }),
    ).toMatchObject({
      type: 'location',
      location: { latitude: 52.1, longitude: 4.3, name: 'HQ', address: 'Main St 1' },
    });
    const body = graph({
      contact_cards: [
        {
          name: { formatted_name: 'Ada L', first_name: 'Ada' },
          org: { company: 'Acme' },
          phone_numbers: [
            { phone_number: '+31612345678', type: 'CELL' },
            { phone_number: '0612 ext 4' },
          ],
          emails: [{ email: 'ada@example.org', type: 'work' }],
        },
      ],
    });
    expect(body).toMatchObject({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Ada L', first_name: 'Ada' },
          org: { company: 'Acme' },
          phones: [
            { phone: '+31612345678', type: 'CELL', wa_id: '31612345678' },
            { phone: '0612 ext 4' },
          ],
          emails: [{ email: 'ada@example.org', type: 'work' }],
        },
      ],
    });
  });

  it("maps each interactive kind to Meta's interactive shape", () => {
    expect(
      graph({
        interactive: {
          type: 'button',
          header: { type: 'text', text: 'H' },
          body_text: 'B',
          footer_text: 'F',
          buttons: [{ type: 'quick_reply', quick_reply: { slug: 'y', text: 'Yes' } }],
        },
      }).interactive,
    ).toEqual({
      type: 'button',
      header: { type: 'text', text: 'H' },
      body: { text: 'B' },
      footer: { text: 'F' },
      action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Yes' } }] },
    });
    expect(
      graph({
        interactive: {
          type: 'list',
          body_text: 'B',
          list: {
            button_text: 'Menu',
            sections: [{ title: 'S', rows: [{ slug: 'r1', text: 'One', description: 'd' }] }],
          },
        },
      }).interactive,
    ).toEqual({
      type: 'list',
      body: { text: 'B' },
      action: {
        button: 'Menu',
        sections: [{ title: 'S', rows: [{ id: 'r1', title: 'One', description: 'd' }] }],
      },
    });
    expect(
      graph({
        interactive: {
          type: 'cta_url',
          header: { type: 'video', url: img },
          body_text: 'B',
          cta_url: { text: 'Open', url: 'https://x.example.org' },
        },
      }).interactive,
    ).toEqual({
      type: 'cta_url',
      header: { type: 'video', video: { link: img } },
      body: { text: 'B' },
      action: {
        name: 'cta_url',
        parameters: { display_text: 'Open', url: 'https://x.example.org' },
      },
    });
    const card = (i: number) => ({
      header: { type: 'image', url: img },
      body_text: `c${i}`,
      buttons: [{ type: 'quick_reply', quick_reply: { slug: `s${i}`, text: 'Buy' } }],
    });
    expect(
      graph({ interactive: { type: 'carousel', body_text: 'B', cards: [card(0), card(1)] } })
        .interactive,
    ).toEqual({
      type: 'carousel',
      body: { text: 'B' },
      action: {
        cards: [0, 1].map((i) => ({
          card_index: i,
          type: 'button',
          header: { type: 'image', image: { link: img } },
          body: { text: `c${i}` },
          action: {
            buttons: [{ type: 'quick_reply', quick_reply: { id: `s${i}`, title: 'Buy' } }],
          },
        })),
      },
    });
    const link = {
      header: { type: 'image', url: img },
      buttons: [{ type: 'cta_url', cta_url: { text: 'Go', url: 'https://x.example.org' } }],
    };
    expect(
      graph({ interactive: { type: 'carousel', body_text: 'B', cards: [link, link] } }).interactive,
    ).toMatchObject({
      action: {
        cards: [
          {
            card_index: 0,
            type: 'cta_url',
            action: {
              name: 'cta_url',
              parameters: { display_text: 'Go', url: 'https://x.example.org' },
            },
          },
          { card_index: 1 },
        ],
      },
    });
    expect(
      graph({ interactive: { type: 'location_request_message', body_text: 'Where?' } }).interactive,
    ).toEqual({
      type: 'location_request_message',
      body: { text: 'Where?' },
      action: { name: 'send_location' },
    });
    expect(
      graph({ interactive: { type: 'request_contact_info', body_text: 'Number?' } }).interactive,
    ).toEqual({
      type: 'request_contact_info',
      body: { text: 'Number?' },
      action: { name: 'request_contact_info' },
    });
  });

  it("maps a template to Meta's name, language and components, buttons at their index", () => {
    const resolved: ResolvedGraphTemplate = {
      name: 'order_update',
      language: 'pt_BR',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Oi {{nome}}' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Ok' },
            { type: 'URL', url: 'https://t.example.org/{{1}}' },
            { type: 'COPY_CODE' },
          ],
        },
      ],
    };
    const body = graph(
      {
        template: {
          slug: 'order_update',
          language: 'pt-BR',
          components: [
            { type: 'header', parameters: [{ type: 'image', url: img }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Ada', name: 'nome' }] },
            { type: 'button', parameters: [{ type: 'text', text: 'A1' }] },
            { type: 'button', parameters: [{ type: 'text', text: 'SAVE' }] },
          ],
        },
      },
      resolved,
    );
    expect(body).toMatchObject({ type: 'template' });
    expect(body.template).toEqual({
      name: 'order_update',
      language: { policy: 'deterministic', code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { link: img } }] },
        { type: 'body', parameters: [{ type: 'text', text: 'Ada', parameter_name: 'nome' }] },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A1' }] },
        {
          type: 'button',
          sub_type: 'copy_code',
          index: '2',
          parameters: [{ type: 'coupon_code', coupon_code: 'SAVE' }],
        },
      ],
    });
  });

  it('numbers carousel template cards and leaves out components of a template without values', () => {
    const card = {
      components: [
        { type: 'HEADER', format: 'VIDEO' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://s.example.org/{{1}}' }] },
      ],
    };
    const resolved = {
      name: 'picks',
      language: 'en',
      components: [
        { type: 'BODY', text: 'Picks' },
        { type: 'CAROUSEL', cards: [card, card] },
      ],
    };
    const sendCard = (i: number) => ({
      components: [
        { type: 'header', parameters: [{ type: 'video', url: img }] },
        { type: 'button', parameters: [{ type: 'text', text: `p${i}` }] },
      ],
    });
    expect(
      graph(
        {
          template: {
            slug: 'picks',
            components: [{ type: 'carousel', cards: [sendCard(0), sendCard(1)] }],
          },
        },
        resolved,
      ).template,
    ).toEqual({
      name: 'picks',
      language: { policy: 'deterministic', code: 'en' },
      components: [
        {
          type: 'carousel',
          cards: [0, 1].map((i) => ({
            card_index: i,
            components: [
              { type: 'header', parameters: [{ type: 'video', video: { link: img } }] },
              {
                type: 'button',
                sub_type: 'url',
                index: '0',
                parameters: [{ type: 'text', text: `p${i}` }],
              },
            ],
          })),
        },
      ],
    });
    expect(
      graph({ template: { slug: 'hello' } }, { name: 'hello', language: 'en_US', components: [] })
        .template,
    ).toEqual({
      name: 'hello',
      language: { policy: 'deterministic', code: 'en_US' },
    });
  });

  it('turns every valid generated content into a Graph body of its kind', () => {
    const label = fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((text) => text.trim().length > 0);
    const slug = fc
      .string({ minLength: 1, maxLength: 200 })
      .filter((text) => text.trim().length > 0);
    const url = fc.constantFrom(img, 'https://media.example.com/v.mp4?sig=1');
    const reply = fc
      .tuple(slug, label)
      .map(([s, t]) => ({ type: 'quick_reply', quick_reply: { slug: s, text: t } }));
    const uniqueReplies = (min: number, max: number) =>
      fc.uniqueArray(reply, {
        minLength: min,
        maxLength: max,
        selector: (b) => b.quick_reply.text,
      });
    const content = fc.oneof(
      fc.record({ text: fc.record({ body: label, preview_url: fc.boolean() }) }),
      fc.record({
        image: fc.record(
          {
            url,
            caption: fc
              .string({ minLength: 1, maxLength: 1024 })
              .filter((text) => text.trim().length > 0),
          },
          { requiredKeys: ['url'] },
        ),
      }),
      fc.record({ video: fc.record({ url }) }),
      fc.record({ audio: fc.record({ url, voice: fc.boolean() }) }),
      fc.record({ sticker: fc.record({ url }) }),
      fc.record({ document: fc.record({ url, filename: fc.constantFrom('a.pdf', 'b.docx') }) }),
      fc.record({
        location: fc.record({
          // `+ 0` makes -0 a 0: JSON has no -0, and the body is compared with its JSON round trip.
          latitude: fc.double({ min: -90, max: 90, noNaN: true }).map((n) => n + 0),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }).map((n) => n + 0),
        }),
      }),
      fc.record({
        interactive: fc.record({
          type: fc.constant('button'),
          body_text: label,
          buttons: uniqueReplies(1, 3),
        }),
      }),
      fc.record({
        interactive: fc.record({
          type: fc.constant('list'),
          body_text: label,
          list: fc.record({
            button_text: label,
            sections: fc
              .uniqueArray(
                fc.tuple(
                  slug,
                  fc.string({ minLength: 1, maxLength: 24 }).filter((t) => t.trim().length > 0),
                ),
                { minLength: 1, maxLength: 10, selector: ([, t]) => t },
              )
              .map((rows) => [
                { title: 'All', rows: rows.map(([s, t]) => ({ slug: s, text: t })) },
              ]),
          }),
        }),
      }),
      fc.integer({ min: 2, max: 10 }).chain((cards) =>
        fc.record({
          interactive: fc.record({
            type: fc.constant('carousel'),
            body_text: label,
            cards: fc.array(
              uniqueReplies(2, 2).map((buttons) => ({
                header: { type: 'image', url: img },
                buttons,
              })),
              { minLength: cards, maxLength: cards },
            ),
          }),
        }),
      ),
      fc.record({
        interactive: fc.record({
          type: fc.constantFrom('location_request_message', 'request_contact_info'),
          body_text: label,
        }),
      }),
      fc.record({
        contact_cards: fc.array(
          fc.record({ name: fc.record({ formatted_name: label, last_name: label }) }),
          { minLength: 1, maxLength: 5 },
        ),
      }),
    );
    const expectedType: Record<string, string> = { contact_cards: 'contacts' };
    fc.assert(
      fc.property(content, (body) => {
        const kind = Object.keys(body)[0];
        const message = graph(body);
        const type = expectedType[kind] ?? kind;
        expect(message.type).toBe(type);
        expect(message[type]).toBeDefined();
        expect(message.to).toBe('31612345678');
        expect(JSON.parse(JSON.stringify(message))).toEqual(message);
      }),
      { numRuns: 300 },
    );
  }, 30_000);
});

describe('template round trip', () => {
  it('turns a generated template send that fits its template into a Graph template with every value', () => {
    const value = fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((text) => text.trim().length > 0);
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 5 }),
        fc.option(value, { nil: undefined }),
        (bodyValues, urlValue) => {
          const placeholders = bodyValues.map((_, i) => `{{${i + 1}}}`).join(' ');
          const resolved: ResolvedGraphTemplate = {
            name: 'generated',
            language: 'en_US',
            components: [
              { type: 'BODY', text: `Hello ${placeholders}` },
              {
                type: 'BUTTONS',
                buttons: [
                  { type: 'QUICK_REPLY', text: 'Ok' },
                  ...(urlValue === undefined
                    ? []
                    : [{ type: 'URL', url: 'https://x.example.org/{{1}}' }]),
                ],
              },
            ],
          };
          const components = [
            ...(bodyValues.length > 0
              ? [{ type: 'body', parameters: bodyValues.map((text) => ({ type: 'text', text })) }]
              : []),
            ...(urlValue === undefined
              ? []
              : [{ type: 'button', parameters: [{ type: 'text', text: urlValue }] }]),
          ];
          const content = contentOf({
            template: { slug: 'generated', language: 'en', components },
          });
          if (content.kind !== 'template') throw new Error('expected template content');
          checkTemplateParameters(resolved.components, content.template.components);
          const message = toGraphMessage(content, { to, template: resolved });
          expect(message.type).toBe('template');
          const sent = JSON.stringify(message.template);
          for (const text of [...bodyValues, ...(urlValue === undefined ? [] : [urlValue])])
            expect(sent).toContain(JSON.stringify(text).slice(1, -1));
          if (urlValue !== undefined) expect(sent).toContain('"sub_type":"url","index":"1"');
        },
      ),
      { numRuns: 200 },
    );
  }, 30_000);
});
