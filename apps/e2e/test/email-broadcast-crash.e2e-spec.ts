import {
  call,
  createWorkspace,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { SmtpSink, TestDnsServer } from '@switchboard/testing';
import { Client } from 'pg';
import { startDistributedTopology } from './distributed-topology';
import type { DistributedTopology } from './distributed-topology';

/** How long after the kill the sink may still read a message whose dot was sent before it. */
const IN_FLIGHT_MS = 250;

const RECIPIENTS = 5_000;
const DOMAIN = 'news.crash.test';

/**
 * Nothing lost: the email service (one process of the distributed topology) SIGKILLed in the
 * middle of a 5,000-recipient broadcast and restarted. Each recipient gets its mail, counted per
 * recipient at the SMTP sink, personalised with its contact's name; no recipient gets two
 * messages from the preparation (one message per contact, enforced). A second copy of the same
 * message is the known SMTP window (issue 17): it is bounded and reported, not hidden.
 */
describe('a broadcast survives a crash of the email service', () => {
  let topology: DistributedTopology;
  let sink: SmtpSink;
  let dns: TestDnsServer;

  beforeAll(async () => {
    [sink, dns] = await Promise.all([startSmtpSink(), startDnsServer()]);
    topology = await startDistributedTopology({
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      RATE_LIMITS: 'off',
      EMAIL_DELIVERY_CONCURRENCY: '32',
      TRANSPORT_TIMEOUT_MS: '10000',
    });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await Promise.all([sink?.stop(), dns?.stop()]);
  });

  it('delivers a personalised mail to each of 5,000 recipients across a SIGKILL mid-send, one message per recipient', async () => {
    const base = topology.gatewayUrl;
    const acme = await createWorkspace(base, topology.adminToken, { name: 'Acme' });
    const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
      call<T>(base, method, path, { token: acme.api_key.secret, body });
    const domain = await api<{
      id: string;
      dns_records: Array<Parameters<typeof publishedAs>[0] & { host: string }>;
    }>('POST', '/v1/email/domains', { domain: DOMAIN });
    for (const record of domain.body.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect(
      (await api<{ status: string }>('POST', `/v1/email/domains/${domain.body.id}/verify`)).body
        .status,
    ).toBe('verified');
    const template = await api<{ id: string; draft_version_id: string }>(
      'POST',
      '/v1/email/templates',
      {
        slug: 'crash',
        category: 'marketing',
        source: 'html',
        languages: {
          en: {
            subject: 'Hello {{ bird.contact.first_name }}',
            html: '<p>Hi {{ bird.contact.first_name }}</p>',
          },
        },
      },
    );
    const submitted = await api<{ valid: boolean }>(
      'POST',
      `/v1/email/templates/${template.body.id}/versions/${template.body.draft_version_id}/submit`,
      {},
    );
    expect(submitted.body.valid).toBe(true);
    const templateId = template.body.id;
    const audience = await api<{ id: string }>('POST', '/v1/audiences', { name: 'Everyone' });
    for (let from = 0; from < RECIPIENTS; from += 1000) {
      const contacts = Array.from({ length: 1000 }, (_, i) => ({
        email: `r${from + i}@example.com`,
        first_name: `N${from + i}`,
      }));
      const batch = await api('POST', '/v1/contacts/batch', {
        contacts,
        audience_ids: [audience.body.id],
      });
      expect(batch.status).toBe(200);
    }

    const created = await api<{ id: string; status: string }>('POST', '/v1/email/broadcasts', {
      from: `news@${DOMAIN}`,
      audience_id: audience.body.id,
      template: { id: templateId },
      send: true,
    });
    expect(created.body.status).toBe('accepted');
    // Killed while the broadcast is under way: some mail delivered, most not.
    await sink.waitFor(() => sink.messages.length >= 500, 120_000);
    const killedAt = Date.now();
    await topology.killService('email');
    const beforeKill = sink.messages.length;
    await topology.startService('email');
    const restartedAt = Date.now();
    const recipientsSeen = () => new Set(sink.messages.flatMap((m) => m.rcptTo)).size;
    await sink.waitFor(() => recipientsSeen() >= RECIPIENTS, 180_000);
    const allAt = Date.now();
    await new Promise((done) => setTimeout(done, 3_000)); // a duplicate would arrive by now
    const perRecipient = new Map<string, number>();
    for (const mail of sink.messages)
      for (const to of mail.rcptTo) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    const duplicates = [...perRecipient].filter(([, count]) => count > 1);
    const firstCopy = (to: string) => sink.messages.find((m) => m.rcptTo.includes(to));
    console.log(
      `email-broadcast-crash: ${JSON.stringify({
        recipients: RECIPIENTS,
        deliveredBeforeKill: beforeKill,
        received: perRecipient.size,
        duplicates: duplicates.length,
        duplicateMsBeforeKill: duplicates.map(
          ([to]) => killedAt - (firstCopy(to)?.acceptedAt ?? 0),
        ),
        restartToAllDeliveredMs: allAt - restartedAt,
      })}`,
    );
    expect(beforeKill).toBeLessThan(RECIPIENTS);
    expect(perRecipient.size).toBe(RECIPIENTS);
    for (let i = 0; i < RECIPIENTS; i++) expect(perRecipient.has(`r${i}@example.com`)).toBe(true);
    // SMTP is at least once (docs/adr/0005, issue 17): a recipient gets a second copy only when
    // the kill cut the window between the sink's 250 to DATA and the commit recording it, so
    // its first copy came before the kill (give or take what was already on the wire: the
    // sink stamps a message when it has read it, a few ms after a dot sent before the kill),
    // and at most one conversation per delivery worker.
    for (const [to, count] of duplicates) {
      expect(count).toBe(2);
      expect(firstCopy(to)!.acceptedAt).toBeLessThanOrEqual(killedAt + IN_FLIGHT_MS);
    }
    expect(duplicates.length).toBeLessThanOrEqual(32);
    for (const i of [0, 1234, 4999]) {
      const mail = sink.messages.find((m) => m.rcptTo.includes(`r${i}@example.com`));
      expect(mail?.raw.toString()).toContain(`Subject: Hello N${i}`);
    }
    const done = await eventually(
      () =>
        api<{ status: string; recipient_count: number }>(
          'GET',
          `/v1/email/broadcasts/${created.body.id}`,
        ),
      (read) => read.body.status === 'sent',
    );
    expect(done.body.recipient_count).toBe(RECIPIENTS);
    // One message per recipient: a second copy at the sink is the same message (same Message-ID).
    const messageIds = new Map<string, Set<string>>();
    for (const mail of sink.messages)
      for (const to of mail.rcptTo)
        messageIds.set(to, (messageIds.get(to) ?? new Set()).add(mail.messageId));
    expect([...messageIds.values()].filter((ids) => ids.size > 1)).toEqual([]);
    // And in the database: one message per contact of the audience, none twice.
    const db = new Client({ connectionString: topology.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ messages: number; contacts: number }>(
        `SELECT count(*)::int AS messages, count(DISTINCT contact_id)::int AS contacts
         FROM email.messages WHERE broadcast_id = $1`,
        [created.body.id],
      );
      expect(rows[0]).toEqual({ messages: RECIPIENTS, contacts: RECIPIENTS });
    } finally {
      await db.end();
    }
  }, 600_000);
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
