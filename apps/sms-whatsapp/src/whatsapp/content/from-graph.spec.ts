import fc from 'fast-check';
import type { MetaInboundMessage } from '../webhooks/meta-webhook';
import { fromGraphInbound } from './from-graph';

const base = { from: '31612345678', id: 'wamid.IN', timestamp: '1764000000' };
const inbound = (message: Partial<MetaInboundMessage> & { type: string }) =>
  fromGraphInbound({ ...base, ...message }, { fileId: 'waf_1' });

describe(fromGraphInbound.name, () => {
  it('reads text, and the wamid a quoted reply names', () => {
    expect(
      inbound({ type: 'text', text: { body: 'Hi' }, context: { from: '3161', id: 'wamid.OUT' } }),
    ).toEqual({
      content: { text: { body: 'Hi' } },
      replyToWamid: 'wamid.OUT',
    });
    expect(inbound({ type: 'text', text: { body: 'Hi' } })).toEqual({
      content: { text: { body: 'Hi' } },
    });
  });

  it('reads each media kind with the file id the caller stored it under', () => {
    expect(
      inbound({
        type: 'image',
        image: { id: 'm1', mime_type: 'image/jpeg', sha256: 'x', caption: 'look' },
      }).content,
    ).toEqual({
      image: { id: 'waf_1', mime_type: 'image/jpeg', caption: 'look' },
    });
    expect(
      inbound({ type: 'audio', audio: { id: 'm1', mime_type: 'audio/ogg', voice: true } }).content,
    ).toEqual({
      audio: { id: 'waf_1', mime_type: 'audio/ogg', voice: true },
    });
    expect(
      inbound({ type: 'sticker', sticker: { id: 'm1', mime_type: 'image/webp', animated: false } })
        .content,
    ).toEqual({
      sticker: { id: 'waf_1', mime_type: 'image/webp', animated: false },
    });
    expect(
      inbound({
        type: 'document',
        document: { id: 'm1', mime_type: 'application/pdf', filename: 'a.pdf' },
      }).content,
    ).toEqual({
      document: { id: 'waf_1', mime_type: 'application/pdf', filename: 'a.pdf' },
    });
    expect(fromGraphInbound({ ...base, type: 'video', video: { id: 'm1' } }).content).toEqual({
      video: {},
    });
  });

  it('reads a location with its link', () => {
    expect(
      inbound({
        type: 'location',
        location: { latitude: 1.5, longitude: -2, name: 'HQ', url: 'https://maps.example.org' },
      }).content,
    ).toEqual({
      location: { latitude: 1.5, longitude: -2, name: 'HQ', url: 'https://maps.example.org' },
    });
  });

  it('reads contact cards: numbers to E.164 where they parse, labels lowercased, origin kept', () => {
    const content = inbound({
      type: 'contacts',
      contacts: [
        {
          origin: 'contact_request',
          name: { formatted_name: 'Ada L', first_name: 'Ada' },
          phones: [
            { phone: '+31 6 1234 5678', wa_id: '31612345678', type: 'CELL' },
            { phone: '0612 ext 4', type: 'Home' },
          ],
          emails: [{ email: 'ada@example.org', type: 'WORK' }],
          addresses: [{ city: 'Amsterdam', country_code: 'nl', type: 'HOME' }],
        },
        { phones: { wa_id: '14155550100' } },
      ],
    }).content;
    expect(content).toEqual({
      contact_cards: [
        {
          origin: 'contact_request',
          name: { formatted_name: 'Ada L', first_name: 'Ada' },
          phone_numbers: [
            { phone_number: '+31612345678', type: 'cell' },
            { phone_number: '0612 ext 4', type: 'home' },
          ],
          emails: [{ email: 'ada@example.org', type: 'work' }],
          addresses: [{ city: 'Amsterdam', country_code: 'nl', type: 'home' }],
        },
        { phone_numbers: [{ phone_number: '+14155550100' }] },
      ],
    });
  });

  it('reads a tap on a reply button, a list row and a template quick reply as interactive_reply', () => {
    expect(
      inbound({
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
      }).content,
    ).toEqual({
      interactive_reply: { type: 'button', button: { slug: 'yes', text: 'Yes' } },
    });
    expect(
      inbound({
        type: 'interactive',
        interactive: {
          type: 'list_reply',
          list_reply: { id: 'r1', title: 'One', description: 'd' },
        },
      }).content,
    ).toEqual({
      interactive_reply: { type: 'list', list: { slug: 'r1', text: 'One', description: 'd' } },
    });
    expect(
      inbound({ type: 'button', button: { payload: 'Stop promotions', text: 'Stop promotions' } })
        .content,
    ).toEqual({
      interactive_reply: {
        type: 'button',
        button: { slug: 'Stop promotions', text: 'Stop promotions' },
      },
    });
  });

  it('names what it does not model as unsupported', () => {
    expect(inbound({ type: 'order' }).content).toEqual({ unsupported: { type: 'order' } });
    expect(inbound({ type: 'unsupported' }).content).toEqual({
      unsupported: { type: 'unsupported' },
    });
    expect(inbound({ type: 'interactive', interactive: { type: 'nfm_reply' } }).content).toEqual({
      unsupported: { type: 'nfm_reply' },
    });
    expect(inbound({ type: 'image' }).content).toEqual({ unsupported: { type: 'image' } });
  });

  it('never throws on whatever Meta posts', () => {
    const kinds = fc.constantFrom(
      'text',
      'image',
      'video',
      'audio',
      'sticker',
      'document',
      'location',
      'contacts',
      'interactive',
      'button',
      'reaction',
      'system',
    );
    fc.assert(
      fc.property(
        kinds,
        fc.dictionary(
          fc.constantFrom(
            'text',
            'image',
            'audio',
            'location',
            'contacts',
            'interactive',
            'button',
            'context',
          ),
          fc.anything(),
        ),
        (type, fields) => {
          const result = fromGraphInbound({ ...base, ...fields, type });
          expect(Object.keys(result.content)).toHaveLength(1);
        },
      ),
      { numRuns: 500 },
    );
  }, 30_000);
});
