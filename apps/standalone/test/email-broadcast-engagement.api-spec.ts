import { BirdClient } from '@messagebird/sdk';
import type { EmailBroadcast, EmailEvent, EmailRecipient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  freePort,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import { simpleParser } from 'mailparser';
import { Client } from 'pg';
import { eventually, publishTemplate } from './email-broadcasts.fixtures';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';
/** Apple Mail Privacy Protection's fetch: an open, but not a person's (is_prefetched). */
const PREFETCH = 'Mozilla/5.0';
const SHOP = 'https://shop.acme.example/spring?utm=mail&x=1';
const BLOG = 'https://acme.example/blog/spring';

/** One recipient's copy as delivered: its open pixel and its tracked links in document order. */
interface Copy {
  recipientId: string;
  pixel: string;
  links: string[];
}

/**
 * Opens and clicks of a tracked marketing broadcast, hit through the public tracking routes
 * (`/t/o/`, `/t/c/` on PUBLIC_URL, here the gateway) with the URLs read out of the delivered mail,
 * and read back through the SDK: the broadcast's exact counters, its recipients' counts, its
 * clicked links and its event timeline.
 */
describe('email broadcast engagement through the tracking routes', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let broadcastId: string;
  /** Per address, the copy its contact received. */
  const copies = new Map<string, Copy>();

  const client = (workspace: CreatedWorkspace) =>
    new BirdClient({ apiKey: workspace.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
  const verifyDomain = async (sdk: BirdClient, name: string) => {
    const registered = await sdk.domains.create({ domain: name });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await sdk.domains.verify(registered.id)).status).toBe('verified');
  };
  /** Sends a tracked broadcast of `html` to `emails` and waits until every copy is delivered. */
  const broadcastTo = async (sdk: BirdClient, slug: string, emails: string[], html: string) => {
    const template = await publishTemplate(sdk, { slug, subject: 'Spring', html, text: 'Spring' });
    const audience = await sdk.audiences.create({ name: slug });
    await sdk.contacts.batch({
      audience_ids: [audience.id],
      contacts: emails.map((email) => ({ email })),
    });
    const domain = (await sdk.domains.list()).data[0].domain;
    const broadcast = await sdk.broadcasts.create({
      from: `news@${domain}`,
      audience_id: audience.id,
      template: { id: template.templateId },
      track_opens: true,
      track_clicks: true,
      send: true,
    });
    await eventually(
      () => sdk.broadcasts.get(broadcast.id),
      (b) => b.status === 'sent' && b.delivered_count === emails.length,
    );
    return broadcast.id;
  };
  /** The copies of a broadcast as the SMTP sink received them, by recipient address. */
  const copiesOf = async (sdk: BirdClient, id: string) => {
    const found = new Map<string, Copy>();
    for await (const recipient of sdk.broadcasts.listRecipients(id)) {
      const mail = sink.messages.find((m) => m.messageId.startsWith(`${recipient.parent_id}@`));
      if (!mail) throw new Error(`no mail of ${recipient.parent_id} in the sink`);
      const html = String((await simpleParser(mail.raw)).html);
      found.set(recipient.recipient, {
        recipientId: recipient.id,
        pixel: /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1] ?? '',
        links: [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((match) => match[1]),
      });
    }
    return found;
  };
  const open = async (copy: Copy, agent = BROWSER) =>
    expect((await fetch(copy.pixel, { headers: { 'user-agent': agent } })).status).toBe(200);
  const click = async (copy: Copy, link: number) => {
    const answer = await fetch(copy.links[link], {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(answer.status).toBe(302);
    return answer.headers.get('location');
  };
  const all = async <T>(pages: AsyncIterable<T>) => {
    const items: T[] = [];
    for await (const item of pages) items.push(item);
    return items;
  };
  const rejects = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (err) {
      return err as { statusCode: number };
    }
    throw new Error('expected the call to fail');
  };

  beforeAll(async () => {
    [sink, dns] = await Promise.all([startSmtpSink(), startDnsServer()]);
    // PUBLIC_URL defaults to the gateway on PORT: a fixed port makes it known before the start.
    platform = await startTestPlatform({
      PORT: String(await freePort()),
      RATE_LIMITS: 'off',
      // Short, so a commit held up longer than this is quick to stage (see the retry test).
      TRANSPORT_TIMEOUT_MS: '5000',
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = client(acme);
    otherBird = client(other);
    await verifyDomain(bird, 'news.acme.test');
    await verifyDomain(otherBird, 'news.other.test');
    broadcastId = await broadcastTo(
      bird,
      'spring',
      ['ada@example.com', 'grace@example.com', 'linus@example.com', 'mary@example.com'],
      '<html><body><p>Hello</p>' +
        `<a href="${SHOP.replace('&', '&amp;')}" data-link-name="hero">Shop</a> ` +
        `<a href="${BLOG}">Read</a> ` +
        `<a href="${SHOP.replace('&', '&amp;')}" data-link-name="footer">Shop again</a>` +
        '</body></html>',
    );
    for (const [address, copy] of await copiesOf(bird, broadcastId)) copies.set(address, copy);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([sink?.stop(), dns?.stop()]);
  });

  it('delivers each recipient a copy with its own pixel and three tracked links', () => {
    expect([...copies.keys()].sort()).toEqual([
      'ada@example.com',
      'grace@example.com',
      'linus@example.com',
      'mary@example.com',
    ]);
    const pixels = new Set([...copies.values()].map((copy) => copy.pixel));
    expect(pixels.size).toBe(4);
    for (const copy of copies.values()) {
      expect(copy.pixel.startsWith(`${platform.base}/t/o/`)).toBe(true);
      expect(copy.links).toHaveLength(3);
    }
  });

  describe('after opens and clicks', () => {
    const ada = () => copies.get('ada@example.com') as Copy;
    const grace = () => copies.get('grace@example.com') as Copy;
    const linus = () => copies.get('linus@example.com') as Copy;
    const mary = () => copies.get('mary@example.com') as Copy;
    let broadcast: EmailBroadcast;

    beforeAll(async () => {
      // Ada opens twice, clicks the hero link twice and the blog once.
      await open(ada());
      await open(ada());
      expect(await click(ada(), 0)).toBe(SHOP);
      expect(await click(ada(), 0)).toBe(SHOP);
      expect(await click(ada(), 1)).toBe(BLOG);
      // Grace's inbox prefetches, then she opens and clicks the footer link (the same URL).
      await open(grace(), PREFETCH);
      await open(grace());
      expect(await click(grace(), 2)).toBe(SHOP);
      // Linus's inbox only prefetches; Mary does nothing.
      await open(linus(), PREFETCH);
      // A link checker's HEAD is answered but is neither an open nor a click.
      expect((await fetch(mary().pixel, { method: 'HEAD' })).status).toBe(200);
      expect((await fetch(mary().links[0], { method: 'HEAD', redirect: 'manual' })).status).toBe(
        302,
      );
      broadcast = await eventually(
        () => bird.broadcasts.get(broadcastId),
        (b) => (b.open_count ?? 0) >= 5 && (b.click_count ?? 0) >= 4,
      );
      // Whatever is still in flight lands now: the counts below are final, not a moment's.
      await new Promise((resolve) => setTimeout(resolve, 300));
      broadcast = await bird.broadcasts.get(broadcastId);
    }, 60_000);

    it('counts every open and click on the broadcast, and each opener and clicker once', () => {
      expect(broadcast).toMatchObject({
        status: 'sent',
        recipient_count: 4,
        sent_count: 4,
        delivered_count: 4,
        delivered_recipients: 4,
        bounced_count: 0,
        complained_count: 0,
        out_of_band_bounces: 0,
        open_count: 5,
        click_count: 4,
        // Ada and Grace; Linus's open was his inbox's, not his.
        unique_opens_non_prefetched: 2,
        unique_clicks: 2,
      });
    });

    it('leaves the audience counts as they were: they describe the audience, not delivery', async () => {
      expect(await bird.broadcasts.counts(broadcastId)).toEqual({
        broadcast_id: broadcastId,
        status: 'sent',
        total: 4,
        addressable: 4,
        sendable: 4,
        next: [expect.objectContaining({ operation: 'listEmailBroadcastRecipients' })],
      });
    });

    it('lists the broadcast with the same counters', async () => {
      const listed = (await all(bird.broadcasts.list())).find((b) => b.id === broadcastId);
      expect(listed).toMatchObject({
        open_count: 5,
        click_count: 4,
        unique_opens_non_prefetched: 2,
        unique_clicks: 2,
        delivered_recipients: 4,
      });
    });

    it('gives each recipient its own open and click counts, a page at a time', async () => {
      const recipients = await all<EmailRecipient>(
        bird.broadcasts.listRecipients(broadcastId, { limit: 2 }),
      );
      expect(
        Object.fromEntries(recipients.map((r) => [r.recipient, [r.open_count, r.click_count]])),
      ).toEqual({
        'ada@example.com': [2, 3],
        'grace@example.com': [2, 1],
        'linus@example.com': [1, 0],
        'mary@example.com': [0, 0],
      });
      expect(new Set(recipients.map((r) => r.id)).size).toBe(4);
      // An empty address would match everybody: refused.
      const empty = await call<{ error: { code: string } }>(
        platform.base,
        'GET',
        `/v1/email/broadcasts/${broadcastId}/recipients?to=`,
        { token: acme.api_key.secret },
      );
      expect({ status: empty.status, code: empty.body.error?.code }).toEqual({
        status: 422,
        code: 'E01001',
      });
      const one = await bird.broadcasts.listRecipients(broadcastId, { to: 'GRACE@example.com' });
      expect(one.data).toEqual([
        expect.objectContaining({
          id: grace().recipientId,
          status: 'delivered',
          open_count: 2,
          click_count: 1,
        }),
      ]);
    });

    it('lists the clicked URLs most clicked first, named by the name most of their clicks carried', async () => {
      expect(await bird.broadcasts.listClickedLinks(broadcastId)).toEqual({
        data: [
          { url: SHOP, name: 'hero', click_count: 3, recipient_count: 2 },
          { url: BLOG, name: null, click_count: 1, recipient_count: 1 },
        ],
        total: 2,
      });
    });

    it('puts each open and click on the timeline once, oldest first, with what the client said', async () => {
      const opened = await all<EmailEvent>(
        bird.broadcasts.listEvents(broadcastId, { type: 'email.opened', limit: 2 }),
      );
      expect(opened.map((e) => [e.recipient_id, e.is_prefetched])).toEqual([
        [ada().recipientId, false],
        [ada().recipientId, false],
        [grace().recipientId, true],
        [grace().recipientId, false],
        [linus().recipientId, true],
      ]);
      for (const event of opened)
        expect(event).toMatchObject({
          id: expect.any(String),
          ip_address: expect.stringMatching(/127\.0\.0\.1/),
          user_agent: event.is_prefetched ? PREFETCH : BROWSER,
        });
      const clicked = await all<EmailEvent>(
        bird.broadcasts.listEvents(broadcastId, { type: 'email.clicked' }),
      );
      // A link without a name gives a click without link_name (the SDK: absent, not null).
      expect(clicked.map((e) => [e.recipient_id, e.url, e.link_name])).toEqual([
        [ada().recipientId, SHOP, 'hero'],
        [ada().recipientId, SHOP, 'hero'],
        [ada().recipientId, BLOG, undefined],
        [grace().recipientId, SHOP, 'footer'],
      ]);
      expect(clicked[2]).not.toHaveProperty('link_name');
      const timeline = await all<EmailEvent>(bird.broadcasts.listEvents(broadcastId, { limit: 5 }));
      const times = timeline.map((e) => Date.parse(e.occurred_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(timeline.map((e) => e.id)).size).toBe(timeline.length);
      expect(
        timeline.filter((e) => e.recipient_id === mary().recipientId).map((e) => e.type),
      ).toEqual(['email.accepted', 'email.processed', 'email.delivered']);
    });

    it('reports the same engagement in the per-broadcast stats', async () => {
      const stats = await eventually(
        () => bird.email.stats.byBroadcast({}),
        (s) => s.data.some((row) => row.engagement.clicks === 4 && row.engagement.opens === 5),
      );
      expect(stats.data.find((row) => row.broadcast_id === broadcastId)?.engagement).toMatchObject({
        opens: 5,
        opens_non_prefetched: 3,
        unique_opens: 3,
        unique_opens_non_prefetched: 2,
        clicks: 4,
        unique_clicks: 2,
      });
    });

    it('shows another workspace none of it', async () => {
      for (const read of [
        () => otherBird.broadcasts.get(broadcastId),
        () => otherBird.broadcasts.listRecipients(broadcastId),
        () => otherBird.broadcasts.listEvents(broadcastId),
        () => otherBird.broadcasts.listClickedLinks(broadcastId),
      ])
        expect((await rejects(read())).statusCode).toBe(404);
      expect((await otherBird.broadcasts.list()).data).toEqual([]);
      expect((await otherBird.email.stats.byBroadcast({})).data).toEqual([]);
    });

    it('keeps another workspace’s clicks of the same URLs off this broadcast', async () => {
      const theirs = await broadcastTo(
        otherBird,
        'elsewhere',
        ['ada@example.com'],
        `<p><a href="${BLOG}" data-link-name="theirs">Read</a></p>`,
      );
      const [copy] = (await copiesOf(otherBird, theirs)).values();
      await open(copy);
      expect(await click(copy, 0)).toBe(BLOG);
      await eventually(
        () => otherBird.broadcasts.get(theirs),
        (b) => b.click_count === 1 && b.open_count === 1,
      );
      expect(await otherBird.broadcasts.listClickedLinks(theirs)).toEqual({
        data: [{ url: BLOG, name: 'theirs', click_count: 1, recipient_count: 1 }],
        total: 1,
      });
      expect(await bird.broadcasts.get(broadcastId)).toMatchObject({
        open_count: 5,
        click_count: 4,
      });
      expect((await bird.broadcasts.listClickedLinks(broadcastId)).data[1]).toEqual({
        url: BLOG,
        name: null,
        click_count: 1,
        recipient_count: 1,
      });
    });
  });

  it('counts a hit once when the gateway offers its batch again after a time-out', async () => {
    const id = await broadcastTo(bird, 'retried', ['retry@example.com'], '<p>Hi</p>');
    const [copy] = (await copiesOf(bird, id)).values();
    // The recipient's row held locked past the transport time-out: the commit waits, the
    // gateway's request times out and it sends the same batch again, which commits after it.
    const locker = new Client({ connectionString: platform.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM email.recipients WHERE id = $1 FOR UPDATE', [
        copy.recipientId,
      ]);
      await open(copy);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    await eventually(
      () => bird.broadcasts.get(id),
      (b) => b.open_count === 1,
    );
    // Long enough for the batch offered again to have committed too.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await bird.broadcasts.get(id)).toMatchObject({
      open_count: 1,
      unique_opens_non_prefetched: 1,
    });
    const opened = await bird.broadcasts.listEvents(id, { type: 'email.opened' });
    expect(opened.data).toHaveLength(1);
  }, 60_000);

  it('caps the clicked links at the 100 most clicked, with the uncapped total', async () => {
    const urls = Array.from({ length: 101 }, (_, i) => `https://acme.example/p/${i}`);
    const id = await broadcastTo(
      bird,
      'catalogue',
      ['reader@example.com'],
      urls.map((url) => `<a href="${url}">${url}</a>`).join('<br>'),
    );
    const [copy] = (await copiesOf(bird, id)).values();
    expect(copy.links).toHaveLength(101);
    // Each once, the last three times more: it leads, and one of the others is left out.
    for (let i = 0; i < 101; i++) await click(copy, i);
    for (let i = 0; i < 3; i++) await click(copy, 100);
    const links = await eventually(
      () => bird.broadcasts.listClickedLinks(id),
      (list) => list.data[0]?.click_count === 4,
    );
    expect(links.total).toBe(101);
    expect(links.data).toHaveLength(100);
    expect(links.data[0]).toEqual({
      url: urls[100],
      name: null,
      click_count: 4,
      recipient_count: 1,
    });
    expect(links.data.slice(1).every((link) => link.click_count === 1)).toBe(true);
    expect((await bird.broadcasts.get(id)).click_count).toBe(104);
  }, 60_000);
});
