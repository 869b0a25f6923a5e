import { BirdClient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Message {
  id: string;
  status: string;
  scheduled_at?: string;
  delivered_count: number;
  bounced_count: number;
  deferred_count: number;
  rejected_count: number;
  processed_count: number;
  accepted_count: number;
}
interface Recipient {
  id: string;
  role: string;
  recipient: string;
  status: string;
  rejection_reason: string | null;
  bounce_type: string | null;
  bounce_code: string | null;
  bounce_description: string | null;
}
interface Page<T> {
  data: T[];
  next_cursor: string | null;
  prev_cursor: string | null;
}

const FINAL = ['delivered', 'bounced', 'rejected', 'partial_failure', 'complained', 'canceled'];

/**
 * Email messages end to end on the embedded default: the official SDK and raw HTTP against the
 * gateway, delivery through a real SMTP server the test starts (as the relay), sending domains
 * verified against a real DNS server the test starts.
 */
describe('email messages through the gateway', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  const domain = 'mail.acme.test';
  const user = 'owner@acme.test';

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });
  const send = (body: Record<string, unknown>) => api<Message>('POST', '/v1/email/messages', body);
  const recipients = async (id: string) =>
    (await api<Page<Recipient>>('GET', `/v1/email/messages/${id}/recipients`)).body.data;
  const settled = async (id: string, statuses = FINAL, timeoutMs = 20_000): Promise<Message> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = (await bird.email.get(id)) as unknown as Message;
      if (statuses.includes(message.status)) return message;
      if (Date.now() > deadline)
        throw new Error(`${id} still ${message.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const sunk = (id: string) => sink.messages.filter((m) => m.messageId.startsWith(`${id}@`));

  beforeAll(async () => {
    sink = await startSmtpSink();
    dns = await startDnsServer();
    platform = await startTestPlatform({
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      EMAIL_RETRY_BASE_SECONDS: '1',
      EMAIL_ONBOARDING_DAILY_LIMIT: '30',
      RATE_LIMITS: 'email_send=100000,email_batch=100000,read=100000,api_list=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
    const created = await call(
      platform.base,
      'POST',
      `/admin/v1/workspaces/${acme.workspace.id}/users`,
      {
        token: TEST_ADMIN_TOKEN,
        body: { email: user, password: 'a long enough password', role: 'admin' },
      },
    );
    expect(created.status).toBe(201);
    // A verified sending domain: register it, publish what it asks for, verify.
    const registered = await bird.domains.create({ domain });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    const verified = await bird.domains.verify(registered.id);
    expect(verified.status).toBe('verified');
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await sink?.stop();
    await dns?.stop();
  });

  it('sends with the SDK: 202 accepted, then delivered through the relay, DKIM-signed', async () => {
    const message = await bird.email.send({
      from: { email: `hello@${domain}`, name: 'Acme' },
      to: ['ada@example.com'],
      subject: 'Hello',
      html: '<p>Hi</p>',
      text: 'Hi',
      tags: [{ name: 'flow', value: 'welcome' }],
      metadata: { order: 'o-1' },
    });
    expect(message).toMatchObject({ status: 'accepted', accepted_count: 1 });
    expect(message.id).toMatch(/^em_[0-9a-z]{26}$/);
    const done = await settled(message.id);
    expect(done).toMatchObject({ status: 'delivered', delivered_count: 1, processed_count: 1 });
    const [mail] = sunk(message.id);
    expect(mail.rcptTo).toEqual(['ada@example.com']);
    const resolver = async (name: string, type: string) => {
      const { Resolver } = await import('node:dns/promises');
      const lookup = new Resolver();
      lookup.setServers([dns.address]);
      return type === 'TXT' ? lookup.resolveTxt(name) : [];
    };
    const dkim = await dkimVerify(mail.raw, { resolver });
    expect(
      dkim.results.map((result: { status: { result: string } }) => result.status.result),
    ).toEqual(['pass']);
  });

  it('delivers bcc recipients by envelope only: no Bcc header reaches anyone', async () => {
    const message = await bird.email.send({
      from: `Acme <news@${domain}>`,
      to: ['to@example.com'],
      cc: ['cc@example.com'],
      bcc: ['hidden@example.com'],
      subject: 'Copies',
      text: 'body',
      attachments: [{ filename: 'note.txt', content: Buffer.from('attached').toString('base64') }],
    });
    await settled(message.id);
    // Marketing mail (the default) goes as one copy per recipient: each names its own
    // List-Unsubscribe. None carries a Bcc header or the blind address.
    const copies = sunk(message.id);
    expect(copies.flatMap((mail) => mail.rcptTo).sort()).toEqual([
      'cc@example.com',
      'hidden@example.com',
      'to@example.com',
    ]);
    for (const mail of copies) {
      const parsed = await simpleParser(mail.raw);
      expect(parsed.headers.has('bcc')).toBe(false);
      expect(parsed.attachments.map((file) => [file.filename, file.content.toString()])).toEqual([
        ['note.txt', 'attached'],
      ]);
      expect(mail.raw.toString()).not.toContain('hidden@example.com');
    }
    const roles = (await recipients(message.id)).map((r) => [r.role, r.recipient, r.status]);
    expect(roles).toEqual([
      ['to', 'to@example.com', 'delivered'],
      ['cc', 'cc@example.com', 'delivered'],
      ['bcc', 'hidden@example.com', 'delivered'],
    ]);
  });

  it('a 550 bounces that recipient (partial_failure) and suppresses the address', async () => {
    sink.rule('gone@example.com', { code: 550, message: '5.1.1 No such user' });
    const message = await bird.email.send({
      from: `hello@${domain}`,
      to: ['ok@example.com', 'gone@example.com'],
      subject: 'Mixed',
      text: 'x',
    });
    const done = await settled(message.id);
    expect(done).toMatchObject({ status: 'partial_failure', delivered_count: 1, bounced_count: 1 });
    const gone = (await recipients(message.id)).find((r) => r.recipient === 'gone@example.com');
    expect(gone).toMatchObject({ status: 'bounced', bounce_type: 'hard', bounce_code: '550' });
    expect(gone?.bounce_description).toContain('No such user');
    const listed = await api<Page<{ email: string; reason: string; source_email_id: string }>>(
      'GET',
      '/v1/email/suppressions?email=gone@',
    );
    expect(listed.body.data).toMatchObject([
      { email: 'gone@example.com', reason: 'hard_bounce', source_email_id: message.id },
    ]);
    // The next send to it is accepted, then the recipient is rejected as suppressed.
    const again = await bird.email.send({
      from: `hello@${domain}`,
      to: ['gone@example.com'],
      subject: 'Again',
      text: 'x',
    });
    expect((await settled(again.id)).status).toBe('rejected');
    expect(await recipients(again.id)).toMatchObject([
      { status: 'rejected', rejection_reason: 'recipient_suppressed' },
    ]);
    expect(sunk(again.id)).toHaveLength(0);
  });

  it('a 451 defers the recipient, and the retry delivers it', async () => {
    sink.rule('busy@example.com', { code: 451, message: '4.7.1 Try again later', times: 1 });
    const message = await bird.email.send({
      from: `hello@${domain}`,
      to: ['busy@example.com'],
      subject: 'Later',
      text: 'x',
    });
    expect((await settled(message.id)).status).toBe('delivered');
    const events = await api<Page<{ type: string; bounce_code?: string; bounce_type?: string }>>(
      'GET',
      `/v1/email/messages/${message.id}/events`,
    );
    expect(events.body.data.map((event) => event.type)).toEqual([
      'email.accepted',
      'email.processed',
      'email.deferred',
      'email.delivered',
    ]);
    expect(events.body.data[2]).toMatchObject({ bounce_code: '451', bounce_type: 'soft' });
    // Delivered at last: the deferral's details no longer describe the recipient.
    expect(await recipients(message.id)).toMatchObject([
      { status: 'delivered', bounce_code: null, bounce_type: null, bounce_description: null },
    ]);
  });

  it('a deferred recipient suppressed before its retry is rejected, never sent to', async () => {
    sink.rule('later-stop@example.com', { code: 451, message: '4.7.1 Try again later', times: 1 });
    const message = await bird.email.send({
      from: `hello@${domain}`,
      to: ['later-stop@example.com', 'later-go@example.com'],
      subject: 'Later',
      text: 'x',
    });
    const deferred = async () => (await recipients(message.id)).map((r) => r.status);
    for (let tries = 0; !(await deferred()).includes('deferred'); tries++) {
      if (tries > 100) throw new Error('never deferred');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(
      (await api('POST', '/v1/email/suppressions', { email: 'later-stop@example.com' })).status,
    ).toBe(201);
    await settled(message.id);
    expect(await recipients(message.id)).toEqual([
      expect.objectContaining({
        recipient: 'later-stop@example.com',
        status: 'rejected',
        rejection_reason: 'recipient_suppressed',
        bounce_code: null,
        bounce_type: null,
      }),
      expect.objectContaining({ recipient: 'later-go@example.com', status: 'delivered' }),
    ]);
    expect(sunk(message.id).flatMap((m) => m.rcptTo)).toEqual(['later-go@example.com']);
  });

  it('onboarding-domain mail reaches only the workspace users; others are rejected after acceptance', async () => {
    const message = await bird.email.send({
      from: 'try@onboarding.localhost',
      to: [user, 'stranger@example.com'],
      subject: 'Trying',
      text: 'x',
    });
    await settled(message.id);
    expect(
      (await recipients(message.id)).map((r) => [r.recipient, r.status, r.rejection_reason]),
    ).toEqual([
      [user, 'delivered', null],
      ['stranger@example.com', 'rejected', 'recipient_not_allowed'],
    ]);
  });

  it('refuses a sender outside the workspace domains with 422 naming from, and writes nothing', async () => {
    const before = await platform.db.query('SELECT count(*)::int AS n FROM email.messages');
    const unknown = await send({
      from: 'me@elsewhere.test',
      to: ['a@example.com'],
      subject: 's',
      text: 't',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      error: { code: 'E01016', param: 'from', details: [{ param: 'from' }] },
    });
    const after = await platform.db.query('SELECT count(*)::int AS n FROM email.messages');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('rejects a batch whole when one item fails, naming its index; accepts 100 otherwise', async () => {
    const item = (i: number) => ({
      from: `batch@${domain}`,
      to: [`b${i}@example.com`],
      subject: `Batch ${i}`,
      text: 'x',
    });
    const before = await platform.db.query('SELECT count(*)::int AS n FROM email.messages');
    const bad = await api('POST', '/v1/email/batches', {
      messages: [item(0), { ...item(1), from: 'x@nowhere.test' }, item(2)],
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: { details: [{ param: 'messages[1].from' }] } });
    const after = await platform.db.query('SELECT count(*)::int AS n FROM email.messages');
    expect(after.rows[0].n).toBe(before.rows[0].n);

    const batch = await bird.email.sendBatch({
      messages: Array.from({ length: 100 }, (_, i) => item(i)),
    });
    expect(batch.data).toHaveLength(100);
    expect(batch.data.every((entry) => entry.status === 'accepted')).toBe(true);
    await sink.waitFor(() => batch.data.every((entry) => sunk(entry.id).length === 1));
  });

  it("names each recipient's mailbox provider on its events from processing on, null when unknown", async () => {
    const message = await bird.email.send({
      from: `hello@${domain}`,
      to: ['ada@GMail.com', 'bob@example.com'],
      subject: 'Providers',
      text: 'x',
    });
    await settled(message.id);
    const events = await api<Page<{ type: string; mailbox_provider?: string | null }>>(
      'GET',
      `/v1/email/messages/${message.id}/events`,
    );
    const providersOf = (type: string) =>
      events.body.data
        .filter((event) => event.type === type)
        .map((event) => ('mailbox_provider' in event ? event.mailbox_provider : 'absent'));
    expect(providersOf('email.accepted')).toEqual(['absent', 'absent']);
    for (const type of ['email.processed', 'email.delivered'])
      expect(providersOf(type).sort()).toEqual(['gmail', null]);
  });

  it('schedules, shows scheduled, cancels once (204, email.canceled), then 409', async () => {
    const at = new Date(Date.now() + 60_000).toISOString();
    const message = await bird.email.send({
      from: `later@${domain}`,
      to: ['x@example.com'],
      subject: 'Scheduled',
      text: 'x',
      scheduled_at: at,
    });
    expect(message.status).toBe('accepted');
    expect(message.scheduled_at).toBe(at);
    expect((await bird.email.get(message.id)).status).toBe('scheduled');
    const early = await api('GET', `/v1/email/messages/${message.id}/content`);
    expect(early.status).toBe(425);
    expect(early.headers.get('retry-after')).toMatch(/^\d+$/);
    await bird.email.cancel(message.id);
    expect((await bird.email.get(message.id)).status).toBe('canceled');
    const again = await api('POST', `/v1/email/messages/${message.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'E06003', type: 'conflict_error' } });
    const events = await api<Page<{ type: string }>>(
      'GET',
      `/v1/email/messages/${message.id}/events`,
    );
    expect(events.body.data.map((event) => event.type)).toEqual([
      'email.scheduled',
      'email.canceled',
    ]);
    expect((await api('GET', `/v1/email/messages/${message.id}/content`)).status).toBe(404);
  });

  it('a scheduled message whose send time came cannot be canceled while it is being sent (409)', async () => {
    const message = await bird.email.send({
      from: `later@${domain}`,
      to: ['sending@example.com'],
      subject: 'Scheduled',
      text: 'x',
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    });
    // What processing leaves for the length of a single destination's SMTP conversation.
    await platform.db.query('UPDATE email.messages SET processed_at = now() WHERE id = $1', [
      message.id,
    ]);
    const cancel = await api('POST', `/v1/email/messages/${message.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ error: { code: 'E06003' } });
    expect((await bird.email.get(message.id)).status).toBe('scheduled');
    const events = await api<Page<{ type: string }>>(
      'GET',
      `/v1/email/messages/${message.id}/events`,
    );
    expect(events.body.data.map((event) => event.type)).not.toContain('email.canceled');
  });

  it('a sent message cannot be canceled (409); its content is there until it expires (410)', async () => {
    const message = await bird.email.send({
      from: `hello@${domain}`,
      to: ['content@example.com'],
      subject: 'Hi {{ name }}',
      html: '<p>Hello {{ name }}</p>',
      parameters: { name: 'Ada' },
    });
    await settled(message.id);
    expect((await api('POST', `/v1/email/messages/${message.id}/cancel`)).status).toBe(409);
    const content = await api('GET', `/v1/email/messages/${message.id}/content`);
    expect(content).toMatchObject({ status: 200, body: { html: '<p>Hello Ada</p>' } });
    expect((await bird.email.get(message.id)).subject).toBe('Hi Ada');
    await platform.db.query(
      "UPDATE email.contents SET expires_at = now() - interval '1 second' WHERE message_id = $1",
      [message.id],
    );
    const expired = await api('GET', `/v1/email/messages/${message.id}/content`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ error: { code: 'E04009' } });
    // Reads never carry bodies.
    expect(JSON.stringify(await bird.email.get(message.id))).not.toContain('Hello');
  });

  it('lists newest first with filters, cursors, and 404 for another workspace', async () => {
    const other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    const sentIds: string[] = [];
    for (const i of [1, 2, 3]) {
      const message = await bird.email.send({
        from: `list@${domain}`,
        to: [`List${i}@Example.com`],
        subject: `L${i}`,
        text: 'x',
        category: 'transactional',
        tags: [{ name: 'run', value: 'list' }],
      });
      sentIds.push(message.id);
    }
    const page = await api<Page<Message>>('GET', '/v1/email/messages?tag=run:list&limit=2');
    expect(page.body.data.map((m) => m.id)).toEqual([sentIds[2], sentIds[1]]);
    const next = await api<Page<Message>>(
      'GET',
      `/v1/email/messages?tag=run:list&limit=2&starting_after=${page.body.next_cursor}`,
    );
    expect(next.body.data.map((m) => m.id)).toEqual([sentIds[0]]);
    const to = await api<Page<Message>>('GET', '/v1/email/messages?to=LIST2@example.com');
    expect(to.body.data.map((m) => m.id)).toEqual([sentIds[1]]);
    const from = await api<Page<Message>>(
      'GET',
      `/v1/email/messages?from=list@${domain}&category=transactional`,
    );
    expect(from.body.data).toHaveLength(3);
    const foreign = await call(platform.base, 'GET', `/v1/email/messages/${sentIds[0]}`, {
      token: other.api_key.secret,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: { code: 'E04007' } });
  });

  it('refuses onboarding sends past the daily limit with 429 and Retry-After', async () => {
    const small = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Small' });
    const sendAs = () =>
      call(platform.base, 'POST', '/v1/email/messages', {
        token: small.api_key.secret,
        body: { from: 'a@onboarding.localhost', to: ['x@example.com'], subject: 's', text: 't' },
      });
    for (let i = 0; i < 30; i++) expect((await sendAs()).status).toBe(202);
    const refused = await sendAs();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'E07002', type: 'rate_limit_error' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
