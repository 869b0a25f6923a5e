import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  freePort,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Recipient {
  id: string;
  recipient: string;
  status: string;
  rejection_reason: string | null;
  open_count: number;
  click_count: number;
}
interface TimelineEvent {
  type: string;
  recipient_id: string;
  is_prefetched?: boolean;
  url?: string | null;
  link_name?: string | null;
  ip_address?: string | null;
  user_agent?: string | null;
}

const FINAL = ['delivered', 'bounced', 'rejected', 'partial_failure', 'complained', 'canceled'];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';

/**
 * Open and click tracking and one-click unsubscribe, through the gateway's public routes on
 * PUBLIC_URL (here its default, the gateway on PORT), with mail read from an SMTP sink and a
 * verified sending domain whose DKIM signature the test checks.
 */
describe('email tracking and unsubscribe', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  /** Webhook bodies a local receiver got (an endpoint subscribed to the engagement events). */
  const webhooks: Array<{ type: string; data: Record<string, unknown> }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      webhooks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end();
    });
  });
  const domain = 'news.acme.test';
  const otherDomain = 'news.other.test';

  const api = <T>(path: string, token = acme.api_key.secret) =>
    call<T>(platform.base, 'GET', path, { token });
  const recipients = async (id: string) =>
    (await api<{ data: Recipient[] }>(`/v1/email/messages/${id}/recipients`)).body.data;
  const timeline = async (id: string) =>
    (await api<{ data: TimelineEvent[] }>(`/v1/email/messages/${id}/events?limit=100`)).body.data;
  const settled = async (client: BirdClient, id: string) => {
    for (let i = 0; i < 200; i++) {
      const message = await client.email.get(id);
      if (FINAL.includes(message.status)) return message;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${id} never settled`);
  };
  const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return read();
  };
  const mailOf = async (id: string) => {
    const raw = sink.messages.find((m) => m.messageId.startsWith(`${id}@`))?.raw;
    if (!raw) throw new Error(`no mail of ${id} in the sink`);
    return { raw, parsed: await simpleParser(raw) };
  };
  const verifyDomain = async (client: BirdClient, name: string) => {
    const registered = await client.domains.create({ domain: name });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await client.domains.verify(registered.id)).status).toBe('verified');
  };
  const path = (url: string) => url.slice(platform.base.length);
  /** The raw header block, folded lines joined (mailparser turns List-* headers into objects). */
  const headerBlock = (raw: Buffer) => {
    const text = raw.toString('utf8');
    return text.slice(0, text.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    dns = await startDnsServer();
    // PUBLIC_URL defaults to the gateway on PORT: a fixed port makes it known before the start.
    platform = await startTestPlatform({
      PORT: String(await freePort()),
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      RATE_LIMITS: 'email_send=100000,read=100000,api_list=100000,write=100000',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
    otherBird = new BirdClient({ apiKey: other.api_key.secret, baseUrl: platform.base });
    await verifyDomain(bird, domain);
    await verifyDomain(otherBird, otherDomain);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await bird.webhooks.create({
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      events: ['email.opened', 'email.clicked', 'email.list_unsubscribed'],
    });
  }, 60_000);

  afterAll(async () => {
    receiver.close();
    await platform?.stop();
    await sink?.stop();
    await dns?.stop();
  });

  describe('a tracked marketing send', () => {
    const destination = 'https://shop.acme.example/spring?utm=mail&x=1#top';
    let messageId: string;
    let html: string;
    let raw: Buffer;

    beforeAll(async () => {
      const message = await bird.email.send({
        from: `news@${domain}`,
        to: ['ada@example.com'],
        subject: 'Spring',
        category: 'marketing',
        track_opens: true,
        track_clicks: true,
        html:
          '<html><body><p>Hello</p>' +
          `<a href="https://shop.acme.example/spring?utm=mail&amp;x=1#top" data-link-name="hero">Shop</a> ` +
          '<a href="mailto:help@acme.example">Mail us</a> <a href="tel:+3112345678">Call</a> ' +
          '<a href="#top">Top</a></body></html>',
        text: 'Hello',
      });
      messageId = message.id;
      expect((await settled(bird, messageId)).status).toBe('delivered');
      const mail = await mailOf(messageId);
      raw = mail.raw;
      html = String(mail.parsed.html);
    });

    it('carries an open pixel and rewrites http(s) links only', () => {
      expect(html).toMatch(
        new RegExp(`<img src="${platform.base}/t/o/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}"`),
      );
      expect(html).toMatch(
        new RegExp(`href="${platform.base}/t/c/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}"`),
      );
      expect(html).not.toContain('shop.acme.example');
      expect(html).toContain('href="mailto:help@acme.example"');
      expect(html).toContain('href="tel:+3112345678"');
      expect(html).toContain('href="#top"');
    });

    it('carries both List-Unsubscribe headers inside a passing DKIM signature', async () => {
      const headers = headerBlock(raw);
      expect(headers).toMatch(
        new RegExp(`^List-Unsubscribe: <${platform.base}/u/[A-Za-z0-9_.-]+>$`, 'm'),
      );
      expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      const signed = /^DKIM-Signature:.*\bh=([^;]+)/m.exec(headers)?.[1].replace(/\s+/g, '') ?? '';
      expect(signed.toLowerCase().split(':')).toEqual(
        expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']),
      );
      const resolver = async (name: string, type: string) => {
        const { Resolver } = await import('node:dns/promises');
        const lookup = new Resolver();
        lookup.setServers([dns.address]);
        return type === 'TXT' ? lookup.resolveTxt(name) : [];
      };
      const dkim = await dkimVerify(raw, { resolver });
      expect(dkim.results.map((r: { status: { result: string } }) => r.status.result)).toEqual([
        'pass',
      ]);
    });

    it('records one open and one click per hit, redirecting exactly to the original URL', async () => {
      const pixel = /<img src="([^"]+)"/.exec(html)?.[1] ?? '';
      const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? '';
      const opened = await fetch(pixel, { headers: { 'user-agent': BROWSER } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/gif');
      expect(
        Buffer.from(await opened.arrayBuffer())
          .subarray(0, 6)
          .toString(),
      ).toBe('GIF89a');
      const clicked = await fetch(link, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe(destination);
      const [recipient] = await eventually(
        () => recipients(messageId),
        ([r]) => r.open_count === 1 && r.click_count === 1,
      );
      expect(recipient).toMatchObject({ open_count: 1, click_count: 1 });
      expect(await bird.email.get(messageId)).toMatchObject({ open_count: 1, click_count: 1 });
      const events = await timeline(messageId);
      expect(events.filter((e) => e.type === 'email.opened')).toEqual([
        expect.objectContaining({
          recipient_id: recipient.id,
          is_prefetched: false,
          user_agent: BROWSER,
          ip_address: expect.stringMatching(/127\.0\.0\.1/),
        }),
      ]);
      expect(events.filter((e) => e.type === 'email.clicked')).toEqual([
        expect.objectContaining({ url: destination, link_name: 'hero', user_agent: BROWSER }),
      ]);
      const clicks = await platform.db.query(
        'SELECT workspace_id, recipient_id, broadcast_id, url, link_name FROM email.link_clicks WHERE message_id = $1',
        [messageId],
      );
      expect(clicks.rows).toEqual([
        {
          workspace_id: acme.workspace.id,
          recipient_id: recipient.id,
          broadcast_id: null,
          url: destination,
          link_name: 'hero',
        },
      ]);
      const outbox = await platform.db.query<{ type: string }>(
        `SELECT type FROM email.outbox WHERE payload::text LIKE $1 AND type IN ('email.opened', 'email.clicked')`,
        [`%${messageId}%`],
      );
      expect(outbox.rows.map((row) => row.type).sort()).toEqual(['email.clicked', 'email.opened']);
      const delivered = await eventually(
        () => Promise.resolve(webhooks.filter((hook) => hook.data.email_id === messageId)),
        (hooks) => hooks.length >= 2,
      );
      expect(delivered).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'email.opened',
            data: expect.objectContaining({
              recipient_id: recipient.id,
              recipient: 'ada@example.com',
              user_agent: BROWSER,
              broadcast_id: null,
            }),
          }),
          expect.objectContaining({
            type: 'email.clicked',
            data: expect.objectContaining({ url: destination, link_name: 'hero' }),
          }),
        ]),
      );
    });

    it('counts every open, telling an inbox proxy’s prefetch from a person', async () => {
      const pixel = /<img src="([^"]+)"/.exec(html)?.[1] ?? '';
      await fetch(pixel, { headers: { 'user-agent': 'Mozilla/5.0' } });
      await fetch(pixel, { headers: { 'user-agent': BROWSER } });
      const [recipient] = await eventually(
        () => recipients(messageId),
        ([r]) => r.open_count === 3,
      );
      expect(recipient.open_count).toBe(3);
      const counts = await platform.db.query(
        'SELECT human_open_count, first_opened_at IS NOT NULL AS opened, first_clicked_at IS NOT NULL AS clicked FROM email.recipients WHERE id = $1',
        [recipient.id],
      );
      expect(counts.rows[0]).toEqual({ human_open_count: 2, opened: true, clicked: true });
      const prefetched = (await timeline(messageId)).filter(
        (e) => e.type === 'email.opened' && e.is_prefetched,
      );
      expect(prefetched).toHaveLength(1);
    });

    it('answers a forged or altered token 404 with the error envelope, recording nothing', async () => {
      const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? '';
      const token = link.slice(link.lastIndexOf('/') + 1);
      const [payload, mac] = token.split('.');
      const forged = Buffer.from(
        JSON.stringify(['c', messageId, 'rcp_x', 'https://evil.example/']),
      ).toString('base64url');
      for (const bad of [
        `${forged}.${mac}`,
        `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
        `${payload}x.${mac}`,
        'nothing-here',
      ]) {
        const response = await call(platform.base, 'GET', `/t/c/${bad}`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ error: { code: 'E04120' } });
      }
      expect((await call(platform.base, 'GET', `/t/o/${payload}.${mac}`)).status).toBe(404);
      expect((await bird.email.get(messageId)).click_count).toBe(1);
    });

    it('ignores a query string that a mail client or link scanner appends', async () => {
      const pixel = /<img src="([^"]+)"/.exec(html)?.[1] ?? '';
      const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? '';
      const appended = '?utm_source=newsletter&cb=%ZZ&x=%00';
      const opened = await fetch(`${pixel}${appended}`, { headers: { 'user-agent': BROWSER } });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/gif');
      const clicked = await fetch(`${link}${appended}`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER },
      });
      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe(destination);
      const [recipient] = await eventually(
        () => recipients(messageId),
        ([r]) => r.open_count === 4 && r.click_count === 2,
      );
      expect(recipient).toMatchObject({ open_count: 4, click_count: 2 });
    });

    it('shows another workspace nothing of it', async () => {
      const response = await call(platform.base, 'GET', `/v1/email/messages/${messageId}`, {
        token: other.api_key.secret,
      });
      expect(response.status).toBe(404);
    });
  });

  it('sends transactional mail without List-Unsubscribe and untracked mail as written', async () => {
    const message = await bird.email.send({
      from: `receipts@${domain}`,
      to: ['ada@example.com'],
      subject: 'Receipt',
      category: 'transactional',
      html: '<p><a href="https://shop.acme.example/order/1">Order</a></p>',
    });
    await settled(bird, message.id);
    const { parsed } = await mailOf(message.id);
    expect(parsed.headers.has('list-unsubscribe')).toBe(false);
    expect(parsed.headers.has('list-unsubscribe-post')).toBe(false);
    expect(String(parsed.html)).toContain('href="https://shop.acme.example/order/1"');
  });

  describe('one-click unsubscribe', () => {
    const person = 'grace@example.com';
    let unsubscribeUrl: string;

    const marketing = (client: BirdClient, from: string) =>
      client.email.send({
        from,
        to: [person],
        subject: 'Offers',
        category: 'marketing',
        text: 'x',
      });

    beforeAll(async () => {
      const message = await marketing(bird, `news@${domain}`);
      await settled(bird, message.id);
      const { raw } = await mailOf(message.id);
      unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>$/m.exec(headerBlock(raw))?.[1] ?? '';
      expect(unsubscribeUrl).toMatch(new RegExp(`^${platform.base}/u/`));
    });

    it('serves a confirmation page without scripts whose GET changes nothing', async () => {
      const page = await fetch(unsubscribeUrl);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const body = await page.text();
      expect(body).toMatch(/<form method="post">/);
      expect(body).toContain('g…e@example.com');
      expect(body).not.toMatch(/<script/i);
      // A link scanner's or a mail client's own parameters change nothing.
      expect((await fetch(`${unsubscribeUrl}?utm_source=mail&x=%ZZ`)).status).toBe(200);
      expect((await bird.preferences.list({ channel: 'email', handle: person })).data).toEqual([]);
    });

    it('refuses a POST that is neither one-click nor the page’s button (422)', async () => {
      const response = await call(platform.base, 'POST', path(unsubscribeUrl), {
        rawBody: 'something=else',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ error: { code: 'E01140' } });
    });

    it('stops the very next marketing send at once, keeps transactional mail, and tells the ledger', async () => {
      const posted = await fetch(unsubscribeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(posted.status).toBe(200);
      const next = await marketing(bird, `news@${domain}`);
      await settled(bird, next.id);
      expect((await recipients(next.id)).map((r) => [r.status, r.rejection_reason])).toEqual([
        ['rejected', 'recipient_suppressed'],
      ]);
      const receipt = await bird.email.send({
        from: `receipts@${domain}`,
        to: [person],
        subject: 'Receipt',
        category: 'transactional',
        text: 'x',
      });
      expect((await settled(bird, receipt.id)).status).toBe('delivered');
      const ledger = await eventually(
        async () => (await bird.preferences.list({ channel: 'email', handle: person })).data,
        (data) => data.length > 0,
      );
      expect(ledger).toEqual([
        expect.objectContaining({
          channel: 'email',
          handle: person,
          status: 'revoked',
          coverage: 'non_transactional',
          origin: 'unsubscribe_link',
        }),
      ]);
    });

    it('records email.list_unsubscribed for the header and email.unsubscribed for the button, once per recipient', async () => {
      const first = sink.messages.find((m) => m.raw.toString().includes(path(unsubscribeUrl)));
      const id = first?.messageId.split('@')[0] ?? '';
      const post = (body: string) =>
        fetch(unsubscribeUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const button = await post('unsubscribe=confirm');
      expect(button.status).toBe(200);
      expect(await button.text()).toContain('You are unsubscribed');
      // A mail client retrying, a person pressing twice: stated again, not a second event.
      expect((await post('List-Unsubscribe=One-Click')).status).toBe(200);
      expect((await post('unsubscribe=confirm')).status).toBe(200);
      const events = await timeline(id);
      const types = events.map((e) => e.type);
      expect(types.filter((type) => type === 'email.list_unsubscribed')).toHaveLength(1);
      expect(types.filter((type) => type === 'email.unsubscribed')).toHaveLength(1);
      // The page's link has no name: the SDK's link_name is absent then, not null.
      const unsubscribed = events.find((e) => e.type === 'email.unsubscribed');
      expect(unsubscribed?.url).toBe(unsubscribeUrl);
      expect(unsubscribed).not.toHaveProperty('link_name');
    });

    it('changes nothing for another workspace', async () => {
      expect((await otherBird.preferences.list({ channel: 'email', handle: person })).data).toEqual(
        [],
      );
      const elsewhere = await marketing(otherBird, `news@${otherDomain}`);
      expect((await settled(otherBird, elsewhere.id)).status).toBe('delivered');
    });

    it('answers 404 for a forged unsubscribe token', async () => {
      const response = await call(platform.base, 'POST', `/u/${'A'.repeat(40)}.${'B'.repeat(22)}`, {
        rawBody: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: { code: 'E04121' } });
    });
  });
});
