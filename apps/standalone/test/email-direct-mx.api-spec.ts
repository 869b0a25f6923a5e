import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  earlyInARateLimitWindow,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Recipient {
  recipient: string;
  status: string;
  bounce_type: string | null;
  bounce_description: string | null;
}

/** A workspace whose users have these addresses: onboarding-domain mail may reach them. */
async function workspaceWithUsers(platform: TestPlatform, emails: string[]) {
  const workspace = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
  for (const email of emails)
    await call(platform.base, 'POST', `/admin/v1/workspaces/${workspace.workspace.id}/users`, {
      token: TEST_ADMIN_TOKEN,
      body: { email, password: 'a long enough password', role: 'read' },
    });
  return workspace;
}

/**
 * Without SMTP_RELAY_URL, mail goes to each recipient domain's MX host, found through the DNS
 * server of DNS_SERVERS (here one the test starts, pointing the MX at the test's SMTP server).
 * Also the send rate-limit group, which this platform runs with a small quota.
 */
describe('email delivery to MX hosts', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  const user = 'ops@acme.test';
  const user2 = 'ops@nomail.test';
  const user3 = 'ops@beta.test';

  const recipients = async (id: string): Promise<Recipient[]> =>
    (
      await call<{ data: Recipient[] }>(
        platform.base,
        'GET',
        `/v1/email/messages/${id}/recipients`,
        { token: acme.api_key.secret },
      )
    ).body.data;
  const settled = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const message = await bird.email.get(id);
      if (!['accepted', 'processed', 'deferred'].includes(message.status)) return message;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${id} never settled`);
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    dns = await startDnsServer();
    dns.set('acme.test', [{ type: 'MX', exchange: 'mx1.acme.test', priority: 10 }]);
    dns.set('mx1.acme.test', [{ type: 'A', address: '127.0.0.1' }]);
    dns.set('beta.test', [{ type: 'MX', exchange: 'mx1.acme.test', priority: 10 }]);
    dns.set('nomail.test', [{ type: 'MX', exchange: '', priority: 0 }]);
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      EMAIL_MX_PORT: String(sink.port),
      RATE_LIMITS: 'email_send=4,read=100000,api_list=100000',
    });
    acme = await workspaceWithUsers(platform, [user, user2, user3]);
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await sink?.stop();
    await dns?.stop();
  });

  it('resolves the MX through DNS_SERVERS and delivers there', async () => {
    const message = await bird.email.send({
      from: 'try@onboarding.localhost',
      to: [user],
      subject: 'Direct',
      text: 'x',
    });
    expect((await settled(message.id)).status).toBe('delivered');
    expect(sink.messages.map((m) => m.messageId)).toContain(`${message.id}@onboarding.localhost`);
  });

  it('delivers to two destination domains in two transactions and counts both', async () => {
    const message = await bird.email.send({
      from: 'try@onboarding.localhost',
      to: [user, user3],
      subject: 'Two domains',
      text: 'x',
    });
    const done = await settled(message.id);
    expect(done).toMatchObject({ status: 'delivered', delivered_count: 2, processed_count: 2 });
    const copies = sink.messages.filter((m) => m.messageId.startsWith(`${message.id}@`));
    expect(copies.map((m) => m.rcptTo[0]).sort()).toEqual([user, user3].sort());
  });

  it('bounces a recipient whose domain publishes a null MX', async () => {
    const message = await bird.email.send({
      from: 'try@onboarding.localhost',
      to: [user2],
      subject: 'Nowhere',
      text: 'x',
    });
    expect((await settled(message.id)).status).toBe('bounced');
    const [recipient] = await recipients(message.id);
    expect(recipient).toMatchObject({ status: 'bounced', bounce_type: 'hard' });
    expect(recipient.bounce_description).toContain('null MX');
  });

  it('applies the email_send rate-limit group to sends', async () => {
    const send = () =>
      call(platform.base, 'POST', '/v1/email/messages', {
        token: acme.api_key.secret,
        body: { from: 'a@onboarding.localhost', to: [user], subject: 's', text: 't' },
      });
    await earlyInARateLimitWindow();
    let last = await send();
    for (let i = 0; i < 4 && last.status === 202; i++) last = await send();
    expect(last.status).toBe(429);
    expect(last.headers.get('ratelimit')).toMatch(/^"email_send";r=0;t=\d+$/);
    expect(last.body).toMatchObject({ error: { code: 'E07001' } });
  });
});

/**
 * A destination whose server never greets (a tarpit) holds its SMTP conversation until the
 * greeting time-out; the delivery slots of the jobs claimed with it are freed as each of those
 * is recorded, so other destinations' mail goes on meanwhile.
 */
describe('email delivery beside a destination that never answers', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let tarpit: Server;
  const held: Socket[] = [];
  let acme: CreatedWorkspace;
  const users = ['ops@slow.test', 'ops@fast.test', 'ops@other.test', 'ops2@fast.test'];

  beforeAll(async () => {
    sink = await startSmtpSink();
    // Same port as the sink, another loopback address: it accepts and never says a word.
    tarpit = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => tarpit.listen(sink.port, '127.0.0.2', resolve));
    dns = await startDnsServer();
    for (const [domain, address] of [
      ['slow.test', '127.0.0.2'],
      ['fast.test', '127.0.0.1'],
      ['other.test', '127.0.0.1'],
    ]) {
      dns.set(domain, [{ type: 'MX', exchange: `mx.${domain}`, priority: 10 }]);
      dns.set(`mx.${domain}`, [{ type: 'A', address }]);
    }
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      EMAIL_MX_PORT: String(sink.port),
      EMAIL_DELIVERY_CONCURRENCY: '2',
      RATE_LIMITS: 'email_send=100000,read=100000,api_list=100000',
    });
    acme = await workspaceWithUsers(platform, users);
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => tarpit?.close(() => resolve()));
    await sink?.stop();
    await dns?.stop();
  });

  it("delivers other destinations' mail while one conversation waits for a greeting", async () => {
    const send = async (to: string[]) =>
      (
        await call<{ id: string }>(platform.base, 'POST', '/v1/email/messages', {
          token: acme.api_key.secret,
          body: { from: 'try@onboarding.localhost', to, subject: 'Beside', text: 'x' },
        })
      ).body.id;
    // Two destinations: two delivery jobs, claimed together into both slots.
    const first = await send(['ops@slow.test', 'ops@fast.test']);
    await sink.waitFor(() => sink.messages.some((m) => m.messageId.startsWith(`${first}@`)));
    expect(held.length).toBeGreaterThan(0);
    const sentAt = Date.now();
    const second = await send(['ops@other.test', 'ops2@fast.test']);
    await sink.waitFor(
      () => sink.messages.filter((m) => m.messageId.startsWith(`${second}@`)).length === 2,
      20_000,
    );
    // Before, both slots stayed with the first batch until the greeting time-out (30 s).
    expect(Date.now() - sentAt).toBeLessThan(10_000);
  });
});
