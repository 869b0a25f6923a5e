import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import type { BirdAPIError, Preference } from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { CreatedWorkspace } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function failure(promise: Promise<unknown>): Promise<BirdAPIError> {
  try {
    await promise;
  } catch (error) {
    return error as BirdAPIError;
  }
  throw new Error('expected the call to fail');
}

/** A local webhook receiver that records every delivery. */
async function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/preferences`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The preference ledger through the gateway with the official SDK (raw HTTP where the status is
 * the point). A person's own opt-out arrives through the channels (a STOP keyword, an unsubscribe
 * link): until those write it, the test records one with SQL.
 */
describe('preferences through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const post = (body: unknown) =>
    call<Record<string, unknown>>(platform.base, 'POST', '/v1/preferences', {
      token: acme.api_key.secret,
      body,
    });
  const outbox = async (preferenceId: string) =>
    (
      await platform.db.query<{
        type: string;
        payload: { data: Record<string, unknown>; timestamp: string };
      }>(
        `SELECT type, payload FROM verify_lookup_preferences.outbox
         WHERE payload::text LIKE $1 ORDER BY seq`,
        [`%${preferenceId}%`],
      )
    ).rows;

  beforeAll(async () => {
    receiver = await startReceiver();
    platform = await startTestPlatform({ RATE_LIMITS: 'off', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });

  it('records a statement with 201, answers a write to the same key 200, and a repeat with no transition', async () => {
    const first = await post({ channel: 'sms', handle: '+31612345001', status: 'revoked' });
    expect(first.status).toBe(201);
    const result = first.body as {
      applied: boolean;
      transition_id: string;
      preference: Preference;
    };
    expect(result.applied).toBe(true);
    expect(result.transition_id).toEqual(expect.any(String));
    expect(result.preference).toEqual({
      id: expect.stringMatching(/^prf_/),
      channel: 'sms',
      handle: '+31612345001',
      sender_scope: null,
      topic_id: null,
      status: 'revoked',
      coverage: 'non_transactional',
      effective_at: expect.stringMatching(/^\d{4}-/),
      origin: 'api_key',
      source: null,
      consented_at: null,
      contact_id: null,
      created_at: expect.stringMatching(/^\d{4}-/),
      updated_at: expect.stringMatching(/^\d{4}-/),
    });
    const repeat = await post({ channel: 'sms', handle: '+31612345001', status: 'revoked' });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({
      applied: true,
      transition_id: null,
      preference: result.preference,
    });
    const wider = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612345001',
      status: 'revoked',
      coverage: 'all',
    });
    expect(wider.applied).toBe(true);
    expect(wider.preference?.id).toBe(result.preference.id);
    expect(wider.preference?.coverage).toBe('all');
    expect(await bird.preferences.get(result.preference.id)).toEqual(wider.preference);
    const events = await outbox(result.preference.id);
    expect(events.map((event) => event.type)).toEqual(['preference.revoked', 'preference.revoked']);
    expect(events[0]?.payload.data).toEqual({
      preference_id: result.preference.id,
      transition_id: result.transition_id,
      channel: 'sms',
      handle: '+31612345001',
      sender_scope: null,
      topic_id: null,
      coverage: 'non_transactional',
      contact_id: null,
    });
    expect(events[0]?.payload.timestamp).toBe(result.preference.effective_at);
  });

  it('refuses an older statement with applied false and keeps the newer one', async () => {
    const handle = 'ada@example.com';
    const newer = await bird.preferences.create({
      channel: 'email',
      handle,
      status: 'granted',
      consented_at: minutesAgo(5),
      source: 'signup form',
    });
    const older = await bird.preferences.create({
      channel: 'email',
      handle: 'ADA@example.com',
      status: 'granted',
      consented_at: minutesAgo(30),
    });
    expect(older.applied).toBe(false);
    expect(older.transition_id).toEqual(expect.any(String));
    expect(older.preference).toEqual(newer.preference);
    expect(await bird.preferences.get(newer.preference!.id)).toEqual(newer.preference);
    const transitions = await platform.db.query(
      'SELECT applied FROM verify_lookup_preferences.preference_transitions WHERE preference_id = $1 ORDER BY recorded_at',
      [newer.preference!.id],
    );
    expect(transitions.rows.map((row: { applied: boolean }) => row.applied)).toEqual([true, false]);
  });

  it('lets a grant replace an opt-out only with a consented_at later than the opt-out', async () => {
    const handle = '+31612345002';
    const optOut = await bird.preferences.create({
      channel: 'whatsapp',
      handle,
      status: 'revoked',
    });
    const bare = await post({ channel: 'whatsapp', handle, status: 'granted' });
    expect(bare.status).toBe(422);
    expect((bare.body as { error: { code: string } }).error.code).toBe('E01111');
    const before = await bird.preferences.create({
      channel: 'whatsapp',
      handle,
      status: 'granted',
      consented_at: minutesAgo(10),
    });
    expect(before).toEqual({
      applied: false,
      transition_id: expect.any(String),
      preference: optOut.preference,
    });
    const later = await bird.preferences.create({
      channel: 'whatsapp',
      handle,
      status: 'granted',
      consented_at: new Date(),
    });
    expect(later.applied).toBe(true);
    expect(later.preference?.status).toBe('granted');
    expect(later.preference?.id).toBe(optOut.preference?.id);
    const types = (await outbox(optOut.preference!.id)).map((event) => event.type);
    expect(types).toEqual(['preference.revoked', 'preference.granted']);
  });

  it("never deletes or overrides a person's own opt-out, but a later consent restores messaging", async () => {
    const id = `prf_${'ownoptout'.padEnd(26, '0')}`;
    await platform.db.query(
      `INSERT INTO verify_lookup_preferences.preferences
         (id, workspace_id, channel, handle, sender_scope, status, coverage, origin, effective_at)
       VALUES ($1, $2, 'sms', '+31612345003', '+3197010000000', 'revoked', 'all', 'keyword', now() - interval '1 hour')`,
      [id, acme.workspace.id],
    );
    const del = await failure(bird.preferences.delete(id));
    expect(del.statusCode).toBe(422);
    expect(del.code).toBe('E01110');
    const key = { channel: 'sms', handle: '+31612345003', sender_scope: '+3197010000000' } as const;
    for (const body of [
      { ...key, status: 'granted' as const },
      { ...key, status: 'revoked' as const, coverage: 'non_transactional' as const },
    ]) {
      const refused = await failure(bird.preferences.create(body));
      expect([refused.statusCode, refused.code]).toEqual([422, 'E01110']);
    }
    expect((await bird.preferences.get(id)).origin).toBe('keyword');
    const consent = await bird.preferences.create({
      ...key,
      status: 'granted',
      consented_at: new Date(),
    });
    expect(consent.applied).toBe(true);
    expect(consent.preference?.origin).toBe('api_key');
  });

  it('deletes with 200 and a result, emits preference.deleted, and the key starts over with 201', async () => {
    const created = await bird.preferences.create({
      channel: 'email',
      handle: 'bob@example.com',
      status: 'revoked',
    });
    const id = created.preference!.id;
    const raw = await call(platform.base, 'DELETE', `/v1/preferences/${id}`, {
      token: acme.api_key.secret,
    });
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({
      applied: true,
      transition_id: expect.any(String),
      preference: null,
    });
    expect((await failure(bird.preferences.get(id))).statusCode).toBe(404);
    expect((await failure(bird.preferences.delete(id))).statusCode).toBe(404);
    expect((await outbox(id)).map((event) => event.type)).toEqual([
      'preference.revoked',
      'preference.deleted',
    ]);
    const again = await post({ channel: 'email', handle: 'bob@example.com', status: 'granted' });
    expect(again.status).toBe(201);
    // A new preference: the deleted id stays 404 (the SDK), the new one reads back.
    const revived = (again.body as { preference: { id: string } }).preference.id;
    expect(revived).not.toBe(id);
    // Its transition still sorts after the delete's, as the channels' projections order a key.
    const after = (again.body as { transition_id: string }).transition_id;
    const deletedBy = (raw.body as { transition_id: string }).transition_id;
    expect(Buffer.compare(Buffer.from(after), Buffer.from(deletedBy))).toBe(1);
    expect((await failure(bird.preferences.get(id))).statusCode).toBe(404);
    expect(await bird.preferences.get(revived)).toMatchObject({ id: revived, status: 'granted' });
  });

  it('publishes its events from the outbox', async () => {
    const until = Date.now() + 20_000;
    let unpublished = 1;
    while (unpublished > 0 && Date.now() < until) {
      const rows = await platform.db.query<{ count: string }>(
        'SELECT count(*) FROM verify_lookup_preferences.outbox WHERE published_at IS NULL',
      );
      unpublished = Number(rows.rows[0]?.count);
      if (unpublished > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(unpublished).toBe(0);
  });

  it('delivers preference.granted, .revoked and .deleted to a subscribed webhook, signed', async () => {
    const endpoint = (await bird.webhooks.create({
      url: receiver.url,
      events: ['preference.granted', 'preference.revoked', 'preference.deleted'],
    })) as unknown as { secret: string };
    const handle = '+31612345020';
    const revoked = await bird.preferences.create({ channel: 'sms', handle, status: 'revoked' });
    const granted = await bird.preferences.create({
      channel: 'sms',
      handle,
      status: 'granted',
      consented_at: new Date(),
    });
    const deleted = await bird.preferences.delete(revoked.preference!.id);
    // An earlier test's event, relayed after the endpoint was created, may come too.
    const events = () =>
      receiver.received
        .map(
          (request) =>
            bird.webhooks.unwrap(request.body, request.headers as Record<string, string>, {
              secret: endpoint.secret,
            }) as unknown as { type: string; data: { transition_id: string; handle: string } },
        )
        .filter((event) => event.data.handle === handle);
    const until = Date.now() + 20_000;
    while (events().length < 3 && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // Deliveries run concurrently: a receiver orders them by the envelope timestamp.
    expect(
      events()
        .map((event) => [event.type, event.data.transition_id, event.data.handle])
        .sort(),
    ).toEqual(
      [
        ['preference.revoked', revoked.transition_id, handle],
        ['preference.granted', granted.transition_id, handle],
        ['preference.deleted', deleted.transition_id, handle],
      ].sort(),
    );
  });

  it('lists newest first with the channel and handle filters, and another workspace sees nothing', async () => {
    const all: Preference[] = [];
    for await (const preference of bird.preferences.list({ limit: 2 })) all.push(preference);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const times = all.map((p) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = await bird.preferences.list({ limit: 2 });
    const second = await bird.preferences.list({
      limit: 2,
      starting_after: first.next_cursor as string,
    });
    expect([...first.data, ...second.data]).toEqual(all.slice(0, 4));
    const back = await bird.preferences.list({
      limit: 2,
      ending_before: second.prev_cursor as string,
    });
    expect(back.data).toEqual(first.data);
    const sms = await bird.preferences.list({ channel: 'sms' });
    expect(sms.data.every((p) => p.channel === 'sms')).toBe(true);
    const one = await bird.preferences.list({ channel: 'email', handle: 'Ada@Example.com' });
    expect(one.data.map((p) => p.handle)).toEqual(['ada@example.com']);
    const noChannel = await call(platform.base, 'GET', '/v1/preferences?handle=ada@example.com', {
      token: acme.api_key.secret,
    });
    expect(noChannel.status).toBe(422);
    expect((await otherBird.preferences.list()).data).toEqual([]);
    expect((await failure(otherBird.preferences.get(all[0].id))).statusCode).toBe(404);
    expect((await failure(otherBird.preferences.delete(all[0].id))).statusCode).toBe(404);
  });

  it('keys an internationalised email domain as the email channel sends to it, and finds it in either form', async () => {
    const revoked = await bird.preferences.create({
      channel: 'email',
      handle: 'Anna@Bücher.de',
      status: 'revoked',
    });
    expect(revoked.preference?.handle).toBe('anna@xn--bcher-kva.de');
    for (const handle of ['anna@bücher.de', 'anna@xn--bcher-kva.de']) {
      const found = await bird.preferences.list({ channel: 'email', handle });
      expect({ handle, found: found.data.map((p) => p.id) }).toEqual({
        handle,
        found: [revoked.preference?.id],
      });
    }
  });

  it("lists a contact's preferences by its current handles, and 404 for an unknown contact", async () => {
    const contact = await bird.contacts.create({
      email: 'cy@example.com',
      phone_number: '+31612345009',
    });
    const email = await bird.preferences.create({
      channel: 'email',
      handle: 'cy@example.com',
      status: 'granted',
    });
    expect(email.preference?.contact_id).toBe(contact.id);
    await bird.preferences.create({ channel: 'sms', handle: '+31612345009', status: 'revoked' });
    await bird.preferences.create({
      channel: 'email',
      handle: 'someone@example.com',
      status: 'revoked',
    });
    const listed: Preference[] = [];
    for await (const preference of bird.contacts.preferences.list(contact.id))
      listed.push(preference);
    expect(listed.map((p) => `${p.channel}:${p.handle}`)).toEqual([
      'sms:+31612345009',
      'email:cy@example.com',
    ]);
    // Both handles matched the contact when they were written (by address, and by number).
    expect(listed.map((p) => p.contact_id)).toEqual([contact.id, contact.id]);
    const paged: Preference[] = [];
    for await (const preference of bird.contacts.preferences.list(contact.id, { limit: 1 }))
      paged.push(preference);
    expect(paged).toEqual(listed);
    const page = await bird.contacts.preferences.list(contact.id, { limit: 1 });
    expect(page.data).toEqual([listed[0]]);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(
      (await failure(bird.contacts.preferences.list(`con_${'unknown'.padEnd(26, '0')}`)))
        .statusCode,
    ).toBe(404);
    expect((await failure(otherBird.contacts.preferences.list(contact.id))).statusCode).toBe(404);
  });

  it('answers an Idempotency-Key replay with the first reply', async () => {
    const body = { channel: 'sms', handle: '+31612345010', status: 'revoked' };
    const headers = { 'Idempotency-Key': 'pref-key-1' };
    const first = await call(platform.base, 'POST', '/v1/preferences', {
      token: acme.api_key.secret,
      body,
      headers,
    });
    const second = await call(platform.base, 'POST', '/v1/preferences', {
      token: acme.api_key.secret,
      body,
      headers,
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
  });

  it('serialises concurrent writes to one key: one row, one 201', async () => {
    const body = { channel: 'sms', handle: '+31612345011', status: 'revoked' };
    const replies = await Promise.all(Array.from({ length: 8 }, () => post(body)));
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
    expect(replies.every((reply) => reply.status === 200 || reply.status === 201)).toBe(true);
  });

  it('answers generated bad inputs with a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            channel: fc.oneof(
              fc.constantFrom('email', 'sms', 'whatsapp'),
              fc.string(),
              fc.integer(),
            ),
            handle: fc.oneof(
              fc.string(),
              fc.constant('+31612345012'),
              fc.emailAddress(),
              fc.integer(),
            ),
            status: fc.oneof(fc.constantFrom('granted', 'revoked'), fc.string()),
            coverage: fc.oneof(fc.constantFrom('all', 'non_transactional'), fc.string()),
            sender_scope: fc.oneof(fc.string(), fc.constant(null)),
            consented_at: fc.oneof(
              fc.string(),
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            ),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const reply = await post(body);
          expect(reply.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    const reply = await call(platform.base, 'GET', '/v1/preferences?limit=0&channel=%00', {
      token: acme.api_key.secret,
    });
    expect(reply.status).toBe(422);
  }, 60_000);
});
