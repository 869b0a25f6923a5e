import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import type { BirdAPIError, Preference, SmsMessage } from '@messagebird/sdk';
import { WEBHOOK_EVENT_TYPES } from '@switchboard/contracts';
import { call, createWorkspace, startTestSmsc } from '@switchboard/testing';
import type { CreatedWorkspace, TestSmsc } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

/** Acme's number, and the people who text it. */
const OUR_NUMBER = '+31612350000';
const PERSON = '+31655560001';
const MANUAL = '+31655560002';
const HELD = '+31655560003';
const LATER = '+31655560004';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`condition not met in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
  const server: Server = createServer((req, res) => {
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
    url: `http://127.0.0.1:${port}/all`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A person's own statements made through a channel reach the preference ledger: an SMS STOP and
 * START texted through a local SMSC become keyword statements (through the internal
 * `internal.preference.statement` event, which no webhook ever carries), under the ledger's
 * rules, once per event.
 */
describe('preferences from SMS keywords', () => {
  let platform: TestPlatform;
  let smsc: TestSmsc;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let secret: string;
  let stop: SmsMessage;
  let optOut: Preference;

  const texted = async (from: string, text: string, count: number) => {
    await smsc.sendInbound({ from: from.slice(1), to: OUR_NUMBER.slice(1), text });
    const inbound = await eventually(
      () => bird.sms.list({ direction: 'inbound', from }),
      (page) => page.data.length >= count,
    );
    return inbound.data[0];
  };
  const ledger = () => bird.preferences.list({ channel: 'sms', handle: PERSON });
  const transitions = async (preferenceId: string) =>
    (
      await platform.db.query<{
        id: string;
        kind: string;
        applied: boolean;
        origin: string;
        source: string;
        source_event_id: string | null;
      }>(
        `SELECT id, kind, applied, origin, source, source_event_id
         FROM verify_lookup_preferences.preference_transitions
         WHERE preference_id = $1 ORDER BY recorded_at`,
        [preferenceId],
      )
    ).rows;
  /** Everything the two services wrote is on the bus (and so consumed). */
  const allPublished = () =>
    eventually(
      async () =>
        (
          await platform.db.query<{ count: number }>(
            `SELECT (SELECT count(*) FROM sms_whatsapp.outbox WHERE published_at IS NULL)
               + (SELECT count(*) FROM verify_lookup_preferences.outbox WHERE published_at IS NULL) AS count`,
          )
        ).rows[0].count,
      (count) => Number(count) === 0,
    );
  const delivered = () =>
    receiver.received.map(
      (request) =>
        bird.webhooks.unwrap(request.body, request.headers as Record<string, string>, {
          secret,
        }) as unknown as { type: string; data: Record<string, unknown> },
    );

  beforeAll(async () => {
    smsc = await startTestSmsc({ urlParams: { prefixes: '31', name: 'nl-carrier' } });
    receiver = await startReceiver();
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      SMPP_URL: smsc.url,
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    const stocked = await call(platform.base, 'POST', '/admin/v1/numbers', {
      token: platform.adminToken,
      body: { number: OUR_NUMBER, number_type: 'mobile', capabilities: ['sms'] },
    });
    expect(stocked.status).toBe(201);
    expect((await bird.numbers.orders.create({ number: OUR_NUMBER })).status).toBe('completed');
    // Subscribed to every event a webhook can carry.
    const endpoint = (await bird.webhooks.create({
      url: receiver.url,
      events: [...WEBHOOK_EVENT_TYPES],
    })) as unknown as { secret: string };
    secret = endpoint.secret;
    await smsc.waitFor(() => smsc.bound() > 0);
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([smsc?.stop(), receiver?.stop()]);
  });

  it('records a texted STOP as the person’s own revoke of everything from the number texted', async () => {
    stop = await texted(PERSON, 'STOP', 1);
    const listed = await eventually(ledger, (page) => page.data.length > 0);
    expect(listed.data).toHaveLength(1);
    optOut = listed.data[0];
    expect(optOut).toMatchObject({
      channel: 'sms',
      handle: PERSON,
      sender_scope: OUR_NUMBER,
      topic_id: null,
      status: 'revoked',
      coverage: 'all',
      origin: 'keyword',
      source: `sms:${stop.id}`,
      consented_at: null,
      effective_at: stop.created_at,
    });
  });

  it('refuses an API key’s grant without consent, its revoke and its delete over that opt-out', async () => {
    const key = { channel: 'sms', handle: PERSON, sender_scope: OUR_NUMBER };
    const grant = await call<{ error: { code: string; type: string } }>(
      platform.base,
      'POST',
      '/v1/preferences',
      { token: acme.api_key.secret, body: { ...key, status: 'granted' } },
    );
    expect(grant.status).toBe(422);
    expect(grant.body.error.code).toBe('E01110');
    const narrower = await failure(
      bird.preferences.create({ ...key, status: 'revoked', coverage: 'non_transactional' }),
    );
    expect([narrower.statusCode, narrower.code]).toEqual([422, 'E01110']);
    const deleted = await failure(bird.preferences.delete(optOut.id));
    expect([deleted.statusCode, deleted.code]).toEqual([422, 'E01110']);
    // The same opt-out said on the person's behalf (an import of an opt-out list) is a repeat.
    const same = await bird.preferences.create({ ...key, status: 'revoked', coverage: 'all' });
    expect(same).toMatchObject({ applied: true, transition_id: null });
    expect(await bird.preferences.get(optOut.id)).toEqual(optOut);
  });

  it('takes a second STOP as a restatement: the opt-out now dates from it, and both are on record', async () => {
    const again = await texted(PERSON, 'stop', 2);
    const rows = await eventually(
      () => transitions(optOut.id),
      (list) => list.length >= 2,
    );
    expect(rows.map((row) => [row.kind, row.applied, row.origin, row.source])).toEqual([
      ['revoked', true, 'keyword', `sms:${stop.id}`],
      ['revoked', true, 'keyword', `sms:${again.id}`],
    ]);
    // A grant must now postdate the second STOP, not the first.
    expect(await bird.preferences.get(optOut.id)).toEqual({
      ...optOut,
      source: `sms:${again.id}`,
      effective_at: again.created_at,
      updated_at: expect.any(String),
    });
  });

  it('records a texted START as the person’s grant, consented when they texted it', async () => {
    const start = await texted(PERSON, 'START', 3);
    const listed = await eventually(ledger, (page) => page.data[0]?.status === 'granted');
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: optOut.id,
        sender_scope: OUR_NUMBER,
        status: 'granted',
        coverage: 'all',
        origin: 'keyword',
        source: `sms:${start.id}`,
        consented_at: start.created_at,
        effective_at: start.created_at,
      }),
    ]);
  });

  it('shows both on the ledger’s record: transitions and their signed preference events', async () => {
    const rows = await eventually(
      () => transitions(optOut.id),
      (list) => list.length >= 3,
    );
    expect(rows.map((row) => [row.kind, row.applied])).toEqual([
      ['revoked', true],
      ['revoked', true],
      ['granted', true],
    ]);
    expect(new Set(rows.map((row) => row.source_event_id)).size).toBe(3);
    // The applied changes reach webhooks as preference.revoked and .granted with their transitions.
    const events = await eventually(
      () => Promise.resolve(delivered().filter((e) => e.type.startsWith('preference.'))),
      (list) => list.length >= 2,
    );
    expect(events.map((e) => [e.type, e.data.transition_id, e.data.sender_scope]).sort()).toEqual(
      [
        ['preference.revoked', rows[0].id, OUR_NUMBER],
        ['preference.granted', rows[2].id, OUR_NUMBER],
      ].sort(),
    );
  });

  it('records a statement delivered twice once', async () => {
    await allPublished();
    const before = await transitions(optOut.id);
    // The relay publishes the STOP's statement again, as after a crash before it marked it.
    const republished = await platform.db.query(
      `UPDATE sms_whatsapp.outbox SET published_at = NULL
       WHERE type = 'internal.preference.statement' AND payload->'data'->>'source' = $1
       RETURNING id`,
      [`sms:${stop.id}`],
    );
    expect(republished.rowCount).toBe(1);
    await platform.db.query("SELECT pg_notify('sms_whatsapp_outbox', '')");
    await allPublished();
    const attempts = await platform.db.query<{ attempts: number }>(
      'SELECT attempts FROM sms_whatsapp.outbox WHERE id = $1',
      [republished.rows[0].id],
    );
    expect(attempts.rows[0].attempts).toBe(2);
    expect(await transitions(optOut.id)).toEqual(before);
    expect((await bird.preferences.get(optOut.id)).status).toBe('granted');
  });

  it('never stores nor delivers an internal event, even to an endpoint subscribed to everything', async () => {
    await allPublished();
    const types = delivered().map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['sms.received', 'sms_suppression.created']));
    expect(types.some((type) => type.startsWith('internal.'))).toBe(false);
    const stored = await platform.db.query(
      `SELECT (SELECT count(*) FROM webhooks.events WHERE type LIKE 'internal.%')
         + (SELECT count(*) FROM webhooks.deliveries d JOIN webhooks.events e ON e.id = d.event_id
            WHERE e.type LIKE 'internal.%') AS count`,
    );
    expect(Number(stored.rows[0].count)).toBe(0);
    const internal = await call(platform.base, 'POST', '/v1/webhooks', {
      token: acme.api_key.secret,
      body: { url: receiver.url, events: ['internal.preference.statement'] },
    });
    expect(internal.status).toBe(422);
  });

  it('leaves a suppression added through the API out of the ledger: it is not the person’s word', async () => {
    await bird.smsSuppressions.add({ destination: MANUAL, originator: OUR_NUMBER });
    await allPublished();
    expect((await bird.preferences.list({ channel: 'sms', handle: MANUAL })).data).toEqual([]);
  });

  it('keeps a statement the ledger cannot take yet on the bus, and records it once it can', async () => {
    await allPublished();
    // The ledger refuses every statement's transition for a while (as a database error would).
    await platform.db.query(
      `ALTER TABLE verify_lookup_preferences.preference_transitions
         ADD CONSTRAINT held_statements CHECK (source_event_id IS NULL) NOT VALID`,
    );
    let dropped = false;
    const release = async () => {
      if (dropped) return;
      dropped = true;
      await platform.db.query(
        'ALTER TABLE verify_lookup_preferences.preference_transitions DROP CONSTRAINT held_statements',
      );
    };
    try {
      const held = await texted(HELD, 'STOP', 1);
      const statement = () =>
        platform.db.query<{ attempts: number; published: boolean }>(
          `SELECT attempts, published_at IS NOT NULL AS published FROM sms_whatsapp.outbox
           WHERE type = 'internal.preference.statement' AND payload->'data'->>'source' = $1`,
          [`sms:${held.id}`],
        );
      await eventually(
        async () => (await statement()).rows[0],
        (row) => row !== undefined && row.attempts >= 1,
      );
      expect((await statement()).rows[0].published).toBe(false);
      expect((await bird.preferences.list({ channel: 'sms', handle: HELD })).data).toEqual([]);
      await release();
      const listed = await eventually(
        () => bird.preferences.list({ channel: 'sms', handle: HELD }),
        (page) => page.data.length > 0,
      );
      expect(listed.data[0]).toMatchObject({
        status: 'revoked',
        origin: 'keyword',
        source: `sms:${held.id}`,
      });
      await allPublished();
      expect((await transitions(listed.data[0].id)).length).toBe(1);
    } finally {
      await release();
    }
  });

  it('refuses a STOP dated before the key’s statement, and keeps the refusal on record', async () => {
    // A grant dated an hour ahead (a clock ahead of ours, say): the STOP texted now is older.
    const id = `prf_${'later'.padEnd(26, '0')}`;
    await platform.db.query(
      `INSERT INTO verify_lookup_preferences.preferences
         (id, workspace_id, channel, handle, sender_scope, status, coverage, origin, consented_at, effective_at)
       VALUES ($1, $2, 'sms', $3, $4, 'granted', 'all', 'api_key', now() + interval '1 hour', now() + interval '1 hour')`,
      [id, acme.workspace.id, LATER, OUR_NUMBER],
    );
    const before = await bird.preferences.get(id);
    const stopped = await texted(LATER, 'STOP', 1);
    const rows = await eventually(
      () => transitions(id),
      (list) => list.length > 0,
    );
    expect(rows.map((row) => [row.kind, row.applied, row.origin, row.source])).toEqual([
      ['revoked', false, 'keyword', `sms:${stopped.id}`],
    ]);
    expect(await bird.preferences.get(id)).toEqual(before);
  });

  it('ends the STOP’s suppression when a grant with later consent reverses it, so SMS agrees with the ledger', async () => {
    const person = '+31655560077';
    await texted(person, 'STOP', 1);
    const suppressed = await eventually(
      () => bird.smsSuppressions.list({ destination: person }),
      (page) => page.data.length === 1,
    );
    expect(suppressed.data[0]).toMatchObject({ reason: 'keyword_stop' });
    await eventually(
      () => bird.preferences.list({ channel: 'sms', handle: person }),
      (page) => page.data[0]?.status === 'revoked',
    );
    const grant = await bird.preferences.create({
      channel: 'sms',
      handle: person,
      sender_scope: OUR_NUMBER,
      status: 'granted',
      consented_at: new Date().toISOString(),
    });
    expect(grant.applied).toBe(true);
    await eventually(
      () => bird.smsSuppressions.list({ destination: person }),
      (page) => page.data.length === 0,
    );
    const ended = await bird.smsSuppressions.get(suppressed.data[0].id);
    expect(ended).toMatchObject({ ended_reason: 'api_key' });
    const sent = await bird.sms.send({
      to: person,
      from: OUR_NUMBER,
      text: 'Welcome back',
      category: 'marketing',
    });
    expect(sent.status).toBe('accepted');
  });

  it('shows another workspace nothing', async () => {
    expect((await otherBird.preferences.list({ channel: 'sms', handle: PERSON })).data).toEqual([]);
    expect((await failure(otherBird.preferences.get(optOut.id))).statusCode).toBe(404);
  });
});
