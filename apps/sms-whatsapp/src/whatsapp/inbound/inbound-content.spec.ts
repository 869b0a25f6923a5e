import { inboundContentOf } from './inbound-content';

const base = { from: '31612345678', id: 'wamid.1', timestamp: '1800000000' };

describe('inboundContentOf', () => {
  it('gives media a waf_ id, on the content and on the file to fetch', () => {
    const read = inboundContentOf({
      ...base,
      type: 'document',
      document: { id: 'meta-9', mime_type: 'application/pdf', sha256: 'abc', filename: 'a.pdf' },
    });
    expect(read.kind).toBe('document');
    expect(read.media).toEqual({
      id: expect.stringMatching(/^waf_/),
      metaMediaId: 'meta-9',
      mimeType: 'application/pdf',
      sha256: 'abc',
      filename: 'a.pdf',
    });
    expect(read.content).toMatchObject({ id: read.media?.id, mime_type: 'application/pdf' });
  });

  it('reads text, the quoted wamid, and names what it does not model', () => {
    const text = inboundContentOf({
      ...base,
      type: 'text',
      text: { body: 'hi' },
      context: { id: 'wamid.0' },
    });
    expect(text).toMatchObject({ kind: 'text', content: { body: 'hi' }, media: null });
    expect(text.replyToWamid).toBe('wamid.0');
    const order = inboundContentOf({ ...base, type: 'order' });
    expect(order).toMatchObject({ kind: 'unsupported', unsupported: { type: 'order' } });
  });

  it('keeps a tap on a reply button as interactive_reply', () => {
    const reply = inboundContentOf({
      ...base,
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
    });
    expect(reply.kind).toBe('interactive_reply');
    expect(reply.interactiveReply).toEqual({
      type: 'button',
      button: { slug: 'yes', text: 'Yes' },
    });
  });
});
