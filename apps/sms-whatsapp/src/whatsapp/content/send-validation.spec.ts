import fc from 'fast-check';
import { CommonErrors, WhatsAppContentErrors as E } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { validateWhatsAppSend } from './send-validation';

const to = '+31612345678';

/** The AppError a body is refused with. */
function refusal(body: unknown): AppError {
  try {
    validateWhatsAppSend(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

const params = (error: AppError) => (error.details ?? []).map((detail) => detail.param);

describe(validateWhatsAppSend.name, () => {
  it('accepts a text send, the recipient normalised to E.164, tags and metadata kept', () => {
    const draft = validateWhatsAppSend({
      to: '+31 6 1234 5678',
      from: '+1 415 555 0100',
      text: { body: 'Hi', preview_url: true },
      tags: [{ name: 'kind', value: 'a-1' }],
      metadata: { order: 7 },
      in_reply_to_message_id: 'wam_abc123',
    });
    expect(draft).toEqual({
      to: { kind: 'phone_number', phoneNumber: to },
      from: '+14155550100',
      content: { kind: 'text', text: { body: 'Hi', preview_url: true } },
      inReplyToMessageId: 'wam_abc123',
      tags: [{ name: 'kind', value: 'a-1' }],
      metadata: { order: 7 },
    });
  });

  it('accepts a business-scoped user ID as the recipient', () => {
    expect(validateWhatsAppSend({ to: 'US.13491208655302741918', text: { body: 'x' } }).to).toEqual(
      {
        kind: 'bsuid',
        bsuid: 'US.13491208655302741918',
      },
    );
  });

  it('refuses a body without content with WhatsAppContentRequired', () => {
    expect(refusal({ to }).code).toBe(E.WhatsAppContentRequired);
  });

  it('refuses two content kinds with WhatsAppContentAmbiguous, naming both', () => {
    const error = refusal({
      to,
      text: { body: 'a' },
      image: { url: 'https://cdn.example.org/a.png' },
    });
    expect(error.code).toBe(E.WhatsAppContentAmbiguous);
    expect(params(error)).toEqual(['text', 'image']);
  });

  it.each(['hello', '12', 'us.123', '+1', '', 42, 'US.'])(
    'refuses the recipient %p',
    (recipient) => {
      const error = refusal({ to: recipient, text: { body: 'x' } });
      expect(error.code).toBe(E.WhatsAppInvalidRecipient);
      expect(error.param).toBe('to');
    },
  );

  it('refuses an unknown top-level field, tags over the limits and metadata over 2 KB', () => {
    const error = refusal({
      to,
      text: { body: 'x' },
      color: 'red',
      tags: [
        { name: 'a', value: 'b' },
        { name: 'a', value: 'c' },
        { name: 'x'.repeat(33), value: 'ok' },
        { name: 'bad name', value: 'v' },
      ],
      metadata: { blob: 'x'.repeat(2100) },
    });
    expect(error.code).toBe(CommonErrors.ValidationError);
    expect(params(error)).toEqual(
      expect.arrayContaining(['color', 'tags[1].name', 'tags[2].name', 'tags[3].name', 'metadata']),
    );
    expect(
      refusal({
        to,
        text: { body: 'x' },
        tags: Array.from({ length: 21 }, (_, i) => ({ name: `t${i}`, value: 'v' })),
      }).param,
    ).toBe('tags');
  });

  it('holds text to 1..4096 characters', () => {
    expect(refusal({ to, text: { body: '' } }).param).toBe('text.body');
    expect(refusal({ to, text: { body: 'x'.repeat(4097) } }).code).toBe(E.WhatsAppContentInvalid);
    expect(validateWhatsAppSend({ to, text: { body: 'x'.repeat(4096) } }).content.kind).toBe(
      'text',
    );
  });

  it.each([
    ['http://cdn.example.org/a.png', 'must be an https URL'],
    ['https://localhost/a.png', 'public'],
    ['https://localhost./a.png', 'public'],
    ['https://metadata.google.internal./x', 'public'],
    ['https://10.1.2.3/a.png', 'public'],
    ['https://192.168.0.4/a.png', 'public'],
    ['https://[::1]/a.png', 'public'],
    ['https://intranet/a.png', 'public'],
    ['https://user:pw@cdn.example.org/a.png', 'credentials'],
    ['not a url', 'absolute URL'],
  ])('refuses the media url %s', (url, message) => {
    const error = refusal({ to, image: { url } });
    expect(error.param).toBe('image.url');
    expect(error.message).toContain(message);
  });

  it('takes each media kind its own fields only', () => {
    const url = 'https://cdn.example.org/f';
    expect(validateWhatsAppSend({ to, audio: { url, voice: true } }).content).toEqual({
      kind: 'audio',
      audio: { url, voice: true },
    });
    expect(
      validateWhatsAppSend({ to, document: { url, caption: 'c', filename: 'a.pdf' } }).content,
    ).toEqual({
      kind: 'document',
      document: { url, caption: 'c', filename: 'a.pdf' },
    });
    expect(params(refusal({ to, sticker: { url, caption: 'no' } }))).toEqual(['sticker.caption']);
    expect(params(refusal({ to, video: { url, caption: 'x'.repeat(1025) } }))).toEqual([
      'video.caption',
    ]);
    expect(params(refusal({ to, document: { url, filename: '../etc/passwd' } }))).toEqual([
      'document.filename',
    ]);
  });

  it('holds a location to latitude -90..90 and longitude -180..180', () => {
    expect(params(refusal({ to, location: { latitude: 91, longitude: -181 } }))).toEqual([
      'location.latitude',
      'location.longitude',
    ]);
    expect(params(refusal({ to, location: { latitude: '1', longitude: 2 } }))).toEqual([
      'location.latitude',
    ]);
    expect(
      validateWhatsAppSend({ to, location: { latitude: -90, longitude: 180, name: 'HQ' } }).content,
    ).toEqual({
      kind: 'location',
      location: { latitude: -90, longitude: 180, name: 'HQ' },
    });
  });

  describe('contact_cards', () => {
    const card = { name: { formatted_name: 'Ada Lovelace', first_name: 'Ada' } };

    it('accepts up to five cards with a formatted name and one more part', () => {
      const cards = Array.from({ length: 5 }, () => ({
        ...card,
        birthday: '1815-12-10',
        phone_numbers: [{ phone_number: '+441234', type: 'CELL' }],
      }));
      expect(validateWhatsAppSend({ to, contact_cards: cards }).content.kind).toBe('contact_cards');
    });

    it('refuses six cards, a name with the formatted name alone, and a date no calendar holds', () => {
      expect(refusal({ to, contact_cards: Array.from({ length: 6 }, () => card) }).param).toBe(
        'contact_cards',
      );
      expect(params(refusal({ to, contact_cards: [{ name: { formatted_name: 'Ada' } }] }))).toEqual(
        ['contact_cards[0].name'],
      );
      expect(params(refusal({ to, contact_cards: [{ name: { first_name: 'Ada' } }] }))).toEqual([
        'contact_cards[0].name.formatted_name',
      ]);
      expect(params(refusal({ to, contact_cards: [{ ...card, birthday: '2023-02-30' }] }))).toEqual(
        ['contact_cards[0].birthday'],
      );
      expect(
        params(refusal({ to, contact_cards: [{ ...card, emails: [{ type: 'work' }] }] })),
      ).toEqual(['contact_cards[0].emails[0].email']);
    });
  });

  describe('template', () => {
    it('accepts id or slug, normalises pt_BR and keeps the components', () => {
      const draft = validateWhatsAppSend({
        to,
        template: {
          slug: 'order_update',
          language: 'pt_br',
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
        },
      });
      expect(draft.content).toEqual({
        kind: 'template',
        template: {
          slug: 'order_update',
          language: 'pt-BR',
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }],
        },
      });
    });

    it('refuses a template without id or slug, an unknown part and a parameter missing its value', () => {
      expect(refusal({ to, template: { language: 'en' } }).param).toBe('template');
      const error = refusal({
        to,
        template: {
          slug: 's',
          components: [
            { type: 'footer', parameters: [] },
            { type: 'header', parameters: [{ type: 'image', text: 'x' }] },
            {
              type: 'body',
              parameters: [{ type: 'text' }, { type: 'text', text: 'x', name: 'Bad-Name' }],
            },
          ],
        },
      });
      expect(params(error)).toEqual([
        'template.components[0].type',
        'template.components[1].parameters[0].text',
        'template.components[1].parameters[0].url',
        'template.components[2].parameters[0].text',
        'template.components[2].parameters[1].name',
      ]);
    });
  });

  it('answers any JSON body with a draft or an AppError, never anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              to: fc.oneof(fc.string(), fc.constant(to), fc.constant('US.1234')),
              text: fc.anything(),
              image: fc.anything(),
              interactive: fc.anything(),
              template: fc.anything(),
              contact_cards: fc.anything(),
              location: fc.anything(),
              tags: fc.anything(),
              metadata: fc.anything(),
            },
            { requiredKeys: [] },
          ),
        ),
        (body) => {
          try {
            validateWhatsAppSend(body);
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).status).toBe(422);
          }
        },
      ),
      { numRuns: 500 },
    );
  }, 30_000);
});
