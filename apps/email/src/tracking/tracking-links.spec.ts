import type { OutboundMail } from '../delivery/transport/outbound-mail';
import { LIST_UNSUBSCRIBE_POST, TrackingLinks } from './tracking-links';

describe(TrackingLinks.name, () => {
  const links = new TrackingLinks({
    ENCRYPTION_KEY: 'test-encryption-key-0123456789',
    PUBLIC_URL: 'https://t.acme.example',
    PORT: 8080,
  });
  const mail: OutboundMail = {
    messageId: 'em_1@acme.example',
    from: { email: 'news@acme.example' },
    to: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
    cc: [],
    replyTo: [],
    subject: 'Hi',
    html: '<p><a href="https://acme.example/x" data-link-name="x">x</a></p>',
    text: 'x https://acme.example/x',
    headers: { 'X-Campaign': 'spring', 'list-unsubscribe': '<mailto:old@acme.example>' },
    attachments: [],
    envelopeFrom: 'bounces@acme.example',
    recipients: ['a@example.com', 'b@example.com'],
  };
  const recipients = [
    { id: 'rcp_a', email: 'a@example.com' },
    { id: 'rcp_b', email: 'b@example.com' },
  ];
  const message = { id: 'em_1', category: 'marketing', track_opens: true, track_clicks: true };

  it('defaults PUBLIC_URL to the gateway on PORT', () => {
    const local = new TrackingLinks({
      ENCRYPTION_KEY: 'k'.repeat(32),
      PUBLIC_URL: undefined,
      PORT: 9000,
    });
    expect(local.origin).toBe('http://127.0.0.1:9000');
  });

  it('personalises tracked or marketing mail only', () => {
    expect(links.personalises(message)).toBe(true);
    expect(links.personalises({ ...message, track_opens: false, track_clicks: false })).toBe(true);
    expect(
      links.personalises({
        ...message,
        category: 'transactional',
        track_opens: false,
        track_clicks: false,
      }),
    ).toBe(false);
    expect(links.personalises({ ...message, category: 'transactional', track_clicks: false })).toBe(
      true,
    );
  });

  it('makes one copy per recipient whose links, pixel and List-Unsubscribe name that recipient', () => {
    const copies = links.copiesFor(mail, message, recipients);
    expect(copies.map((copy) => copy.recipients)).toEqual([['a@example.com'], ['b@example.com']]);
    copies.forEach((copy, index) => {
      const click = /href="https:\/\/t\.acme\.example\/t\/c\/([^"]+)"/.exec(copy.html ?? '')?.[1];
      const open = /<img src="https:\/\/t\.acme\.example\/t\/o\/([^"]+)"/.exec(
        copy.html ?? '',
      )?.[1];
      const unsubscribe = /^<https:\/\/t\.acme\.example\/u\/(.+)>$/.exec(
        copy.headers['List-Unsubscribe'],
      )?.[1];
      const ids = { messageId: 'em_1', recipientId: recipients[index].id };
      expect(links.tokens.verify(click ?? '')).toEqual({
        kind: 'click',
        ...ids,
        url: 'https://acme.example/x',
        linkName: 'x',
      });
      expect(links.tokens.verify(open ?? '')).toEqual({ kind: 'open', ...ids });
      expect(links.tokens.verify(unsubscribe ?? '')).toEqual({ kind: 'unsubscribe', ...ids });
      expect(copy.headers).toEqual({
        'X-Campaign': 'spring',
        'List-Unsubscribe': expect.any(String),
        'List-Unsubscribe-Post': LIST_UNSUBSCRIBE_POST,
      });
      expect(copy.text).toBe(mail.text);
    });
  });

  it('leaves transactional mail without List-Unsubscribe and untracked HTML as written', () => {
    const [copy] = links.copiesFor(
      mail,
      { ...message, category: 'transactional', track_opens: false, track_clicks: true },
      recipients.slice(0, 1),
    );
    expect(copy.headers).toBe(mail.headers);
    expect(copy.html).not.toContain('<img');
    const [plain] = links.copiesFor(
      mail,
      { ...message, track_opens: false, track_clicks: false },
      recipients.slice(0, 1),
    );
    expect(plain.html).toBe(mail.html);
  });
});
