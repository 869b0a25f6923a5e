import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, startTestSmsc } from '@switchboard/testing';
import type { CreatedWorkspace, SmscSubmit, TestSmsc } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const OUR_NUMBER = '+31612340000';
const DELIVERED_TO = '+31612340001';
const UNDELIVERED_TO = '+31612340003';
const FINAL = ['delivered', 'undelivered', 'failed', 'expired', 'rejected'];
const today = () => new Date().toISOString().slice(0, 10);

function receiptFor(submit: SmscSubmit) {
  return submit.destination.addr === UNDELIVERED_TO.slice(1)
    ? { stat: 'UNDELIV', err: '001' }
    : { stat: 'DELIVRD', err: '000' };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * SMS stats with the official SDK, against sends made here through a test SMSC over real SMPP:
 * the figures come through the outbox, the bus and the stats consumer into the rollups.
 */
describe('SMS stats through the gateway', () => {
  let platform: TestPlatform;
  let smsc: TestSmsc;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let undeliveredCode: string;

  const get = (path: string, token = acme.api_key.secret) =>
    call<{ error?: { code: string; param?: string; details?: Array<{ param: string }> } }>(
      platform.base,
      'GET',
      path,
      { token },
    );

  beforeAll(async () => {
    smsc = await startTestSmsc({
      messageIds: 'hex',
      receiptIds: 'other',
      receipts: receiptFor,
      urlParams: { prefixes: '31', name: 'nl-carrier', receipt_ids: 'decimal' },
    });
    platform = await startTestPlatform({ RATE_LIMITS: 'off', SMPP_URL: smsc.url });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    const admin = (path: string, body: unknown) =>
      call(platform.base, 'POST', path, { token: platform.adminToken, body });
    expect(
      (
        await admin('/admin/v1/numbers', {
          number: OUR_NUMBER,
          number_type: 'mobile',
          capabilities: ['sms'],
        })
      ).status,
    ).toBe(201);
    expect((await bird.numbers.orders.create({ number: OUR_NUMBER })).status).toBe('completed');
    for (const [workspace, sender] of [
      [acme, 'Acme'],
      [other, 'Other'],
    ] as const)
      expect(
        (await admin(`/admin/v1/workspaces/${workspace.workspace.id}/sms-senders`, { sender }))
          .status,
      ).toBe(201);

    const spring = [{ name: 'campaign', value: 'spring' }];
    const sent = [
      ...(await Promise.all(
        [DELIVERED_TO, DELIVERED_TO, DELIVERED_TO, UNDELIVERED_TO].map((to) =>
          bird.sms.send({ to, from: 'Acme', text: 'Stats', category: 'service', tags: spring }),
        ),
      )),
      await bird.sms.send({
        to: DELIVERED_TO,
        from: 'Acme',
        text: 'Untagged',
        category: 'marketing',
      }),
    ];
    await Promise.all(
      [DELIVERED_TO, DELIVERED_TO].map((to) =>
        otherBird.sms.send({ to, from: 'Other', text: 'Theirs', category: 'service' }),
      ),
    );
    const finals = await Promise.all(
      sent.map((message) =>
        eventually(
          () => bird.sms.get(message.id),
          (m) => FINAL.includes(m.status),
        ),
      ),
    );
    undeliveredCode = String(finals.find((m) => m.status === 'undelivered')?.last_error?.code);
    await smsc.sendInbound({ from: '31655555555', to: OUR_NUMBER.slice(1), text: 'Hello' });
    // The rollups follow the events asynchronously: wait until every outcome and the inbound
    // message are counted, so each test below starts from the same figures (run alone too).
    await eventually(
      () => bird.sms.stats.summary({ from: today(), to: today() }),
      (s) => s.delivery.delivered + s.delivery.undelivered === 5,
    );
    await eventually(
      () => bird.sms.stats.inbound.summary({ from: today(), to: today() }),
      (s) => s.received === 1,
    );
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    await smsc?.stop();
  });

  it('counts the sends, rates and latency of today, and compares with an empty previous period', async () => {
    const summary = await bird.sms.stats.summary({
      from: today(),
      to: today(),
      compare: 'previous_period',
    });
    expect(summary.delivery).toEqual({
      accepted: 5,
      sent: 5,
      delivered: 4,
      undelivered: 1,
      failed: 0,
      rejected: 0,
      expired: 0,
      delivery_rate: 0.8,
      failure_rate: 0.2,
    });
    expect(summary.latency.processing?.p50_ms).toEqual(expect.any(Number));
    expect(summary.latency.total?.p99_ms).toEqual(expect.any(Number));
    expect(summary.period).toMatchObject({
      from: today(),
      to: today(),
      data_as_of: expect.any(String),
    });
    expect(summary.comparison?.delivery.accepted).toBe(0);
    expect(summary.comparison?.delivery.delivery_rate).toBeNull();
    expect(summary.comparison?.delta).toMatchObject({
      accepted_pct_change: null,
      delivered_pct_change: null,
      delivery_rate_pp: null,
      failure_rate_pp: null,
    });
  });

  it("never counts another workspace's sends", async () => {
    const theirs = await eventually(
      () => otherBird.sms.stats.summary({ from: today(), to: today() }),
      (s) => s.delivery.delivered === 2,
    );
    expect(theirs.delivery).toMatchObject({ accepted: 2, delivered: 2 });
    expect((await otherBird.sms.stats.byTag({})).data).toEqual([]);
  });

  it('breaks the failure down by its error code, and the sends by tag, country, originator, carrier, category', async () => {
    const errors = await bird.sms.stats.byErrorCode({});
    expect(errors.data).toEqual([
      expect.objectContaining({
        error_code: undeliveredCode,
        delivery: expect.objectContaining({ undelivered: 1 }),
      }),
    ]);
    const tags = await bird.sms.stats.byTag({ include_trend: true });
    expect(tags.total).toBe(1);
    expect(tags.data[0]).toMatchObject({
      tag: 'campaign:spring',
      delivery: { accepted: 4, delivered: 3, delivery_rate: 0.75 },
      trend: [{ bucket: today(), delivery: expect.objectContaining({ accepted: 4 }) }],
    });
    expect((await bird.sms.stats.byCountry({})).data).toEqual([
      expect.objectContaining({
        country: 'NL',
        delivery: expect.objectContaining({ accepted: 5 }),
      }),
    ]);
    expect((await bird.sms.stats.byOriginator({})).data[0]).toMatchObject({ originator: 'Acme' });
    expect((await bird.sms.stats.byCarrier({})).data[0]).toMatchObject({
      carrier: expect.any(String),
      delivery: expect.objectContaining({ accepted: 5, sent: 5 }),
    });
    const categories = await bird.sms.stats.byCategory({ sort: 'delivery_rate' });
    expect(categories.data.map((row) => row.category)).toEqual(['marketing', 'service']);
    const statuses = await bird.sms.stats.byStatus({});
    expect(statuses.data[0]).toEqual({ status: 'accepted', count: 5 });
    expect(statuses.data.map((row) => row.status)).toEqual([
      'accepted',
      'sent',
      'delivered',
      'undelivered',
    ]);
  });

  it('answers zero-filled daily and hourly series, and filters by one dimension', async () => {
    const daily = await bird.sms.stats.daily({ to: today() });
    expect(daily.data).toHaveLength(31);
    expect(daily.data[30]).toMatchObject({
      bucket: today(),
      delivery: { accepted: 5, delivered: 4 },
    });
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    const hourly = await bird.sms.stats.hourly({});
    expect(hourly.period.grain).toBe('hour');
    expect(hourly.data).toHaveLength(169);
    const filtered = await bird.sms.stats.summary({
      from: today(),
      to: today(),
      category: 'marketing',
    });
    expect(filtered.delivery.accepted).toBe(1);
    expect(hourly.data.reduce((sum, point) => sum + point.delivery.accepted, 0)).toBe(5);
  });

  it('counts inbound messages by number, country and day', async () => {
    const summary = await eventually(
      () => bird.sms.stats.inbound.summary({ from: today(), to: today() }),
      (s) => s.received === 1,
    );
    expect(summary.received).toBe(1);
    expect((await bird.sms.stats.inbound.byNumber({})).data).toEqual([
      { number: OUR_NUMBER, received: 1 },
    ]);
    expect((await bird.sms.stats.inbound.byCountry({})).data).toEqual([
      { country: 'NL', received: 1 },
    ]);
    const daily = await bird.sms.stats.inbound.daily({ from: today(), to: today() });
    expect(daily.data).toEqual([{ bucket: today(), received: 1 }]);
    expect((await bird.sms.stats.inbound.hourly({})).data.length).toBe(169);
    expect((await bird.sms.stats.inbound.byOperator({})).total).toBe(0);
  });

  it('attributes a late delivery to the send hour, and shifts that hour across midnight with timezone', async () => {
    // A message accepted at 23:30 UTC on 10 March, written with its events through the
    // service's outbox: the relay and the stats consumer fold them like any other.
    const id = 'sms_01backdated0000000000000000';
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_messages (id, workspace_id, direction, status, from_address,
         to_address, country_code, category, text, segments, encoding, characters, tags,
         created_at, sent_at, delivered_at, status_at)
       VALUES ($1, $2, 'outbound', 'delivered', 'Acme', $3, 'NL', 'service', 'Late', 1, 'GSM_7BIT',
         4, '[]', '2026-03-10T23:30:00Z', '2026-03-10T23:30:01Z', '2026-03-12T08:00:00Z',
         '2026-03-12T08:00:00Z')`,
      [id, acme.workspace.id, DELIVERED_TO],
    );
    const events = [
      ['sms.accepted', '2026-03-10T23:30:00Z'],
      ['sms.sent', '2026-03-10T23:30:01Z'],
      ['sms.delivered', '2026-03-12T08:00:00Z'],
    ];
    for (const [type, at] of events)
      await platform.db.query(
        `INSERT INTO sms_whatsapp.outbox (id, type, workspace_id, payload)
         VALUES ($1, $2, $3, jsonb_build_object('type', $2::text, 'timestamp', $4::text,
           'data', jsonb_build_object('sms_id', $5::text)))`,
        [`ev_backdated_${type}`, type, acme.workspace.id, at, id],
      );
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_message_events (id, message_id, workspace_id, type, occurred_at)
       SELECT 'ev_backdated_' || type, $1, $2, type, at::timestamptz
       FROM unnest($3::text[], $4::text[]) AS x (type, at)`,
      [id, acme.workspace.id, events.map(([type]) => type), events.map(([, at]) => at)],
    );
    await platform.db.query(`NOTIFY sms_whatsapp_outbox`);
    const utc = await eventually(
      () => bird.sms.stats.daily({ from: '2026-03-10', to: '2026-03-12' }),
      (s) => s.data[0].delivery.delivered === 1,
    );
    expect(utc.data.map((p) => [p.bucket, p.delivery.accepted, p.delivery.delivered])).toEqual([
      ['2026-03-10', 1, 1],
      ['2026-03-11', 0, 0],
      ['2026-03-12', 0, 0],
    ]);
    const amsterdam = await bird.sms.stats.daily({
      from: '2026-03-10',
      to: '2026-03-12',
      timezone: 'Europe/Amsterdam',
    });
    expect(amsterdam.data.map((p) => [p.bucket, p.delivery.accepted])).toEqual([
      ['2026-03-10', 0],
      ['2026-03-11', 1],
      ['2026-03-12', 0],
    ]);
    const hourly = await bird.sms.stats.hourly({
      from: '2026-03-10T23:00:00Z',
      to: '2026-03-11T00:00:00Z',
    });
    expect(hourly.data.map((p) => p.delivery.delivered)).toEqual([1, 0]);
    // Kathmandu is UTC+05:45: 23:30 UTC is 05:15 local, in the local hour that starts at 23:15 UTC.
    const kathmandu = await bird.sms.stats.hourly({
      from: '2026-03-10T23:00:00Z',
      to: '2026-03-11T00:00:00Z',
      timezone: 'Asia/Kathmandu',
    });
    expect(kathmandu.period).toMatchObject({
      from: '2026-03-10T22:15:00Z',
      to: '2026-03-10T23:15:00Z',
    });
    expect(kathmandu.data.map((p) => [p.bucket, p.delivery.accepted])).toEqual([
      ['2026-03-10T22:15:00Z', 0],
      ['2026-03-10T23:15:00Z', 1],
    ]);
  });

  it('rebuilds the rollups from the stored timelines, showing progress, to the same figures, and vacuums them', async () => {
    const asked = [
      () => bird.sms.stats.summary({ from: today(), to: today() }),
      () => bird.sms.stats.daily({ from: '2026-03-10', to: '2026-03-12' }),
      () => bird.sms.stats.byTag({}),
      () => bird.sms.stats.inbound.byNumber({}),
    ];
    const before = await Promise.all(asked.map((ask) => ask()));
    // As after a restore that lost them.
    await platform.db.query('DELETE FROM sms_whatsapp.sms_stats_rollups');
    await platform.db.query('DELETE FROM sms_whatsapp.sms_inbound_stats_rollups');
    const output = execFileSync(
      process.execPath,
      [join(__dirname, '../../../tools/rebuild-stats.mjs'), '--channel', 'sms', '--chunk', '4'],
      { env: { ...process.env, DATABASE_URL: platform.databaseUrl }, encoding: 'utf8' },
    );
    expect(output).toMatch(/events read \(\d+%\)/);
    // The tables it rewrote are vacuumed before it is done, not left to autovacuum.
    expect(output).toMatch(/vacuuming sms_whatsapp\.stats_folded_events/);
    expect(output).toMatch(/done, \d+ \(message, event\) pairs folded/);
    const after = await Promise.all(asked.map((ask) => ask()));
    const figures = (answers: unknown[]) =>
      JSON.stringify(answers, (key, value: unknown) => (key === 'data_as_of' ? undefined : value));
    expect(figures(after)).toBe(figures(before));
  });

  it('answers a breakdown anew once new events are folded (answers are kept per rollup version)', async () => {
    const marketing = async () =>
      (await bird.sms.stats.byCategory({})).data.find((row) => row.category === 'marketing')
        ?.delivery.accepted;
    expect(await marketing()).toBe(1);
    expect(await marketing()).toBe(1);
    await bird.sms.send({ to: DELIVERED_TO, from: 'Acme', text: 'More', category: 'marketing' });
    expect(await eventually(marketing, (accepted) => accepted === 2)).toBe(2);
  });

  it('refuses every broken rule with 422 naming the parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/sms/stats/summary?from=2026-05-01&to=2026-05-02T00:00:00Z', 'E01150', 'to'],
      ['/v1/sms/stats/daily?from=2025-01-01&to=2026-01-01', 'E01151', 'from'],
      ['/v1/sms/stats/hourly?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z', 'E01151', 'from'],
      ['/v1/sms/stats/daily?from=2026-05-02&to=2026-05-01', 'E01152', 'from'],
      ['/v1/sms/stats/summary?country=NL&originator=Acme', 'E01153', 'originator'],
      ['/v1/sms/stats/tags?include_trend=true&limit=51', 'E01154', 'limit'],
      ['/v1/sms/stats/tags?include_trend=true&from=2026-01-01&to=2026-05-01', 'E01154', 'from'],
      [
        '/v1/sms/stats/summary?from=2026-05-01T00:00:00%2B05:45&timezone=Asia/Kathmandu',
        'E01155',
        'from',
      ],
      ['/v1/sms/stats/summary?timezone=Mars/Olympus', 'E01001', 'timezone'],
      ['/v1/sms/stats/countries?limit=201', 'E01001', 'limit'],
      ['/v1/sms/stats/error-codes?sort=delivery_rate', 'E01001', 'sort'],
      ['/v1/sms/stats/daily?from=2026-05-01T00:00:00Z', 'E01001', 'from'],
      ['/v1/sms/stats/inbound/numbers?limit=0', 'E01001', 'limit'],
    ];
    for (const [path, code, param] of cases) {
      const response = await get(path);
      expect([path, response.status, response.body.error?.code]).toEqual([path, 422, code]);
      expect(response.body.error?.details?.map((d) => d.param)).toContain(param);
    }
  });

  it('answers generated bad queries with 4xx, never 500', async () => {
    const paths = [
      'summary',
      'daily',
      'hourly',
      'tags',
      'error-codes',
      'statuses',
      'inbound/summary',
      'inbound/numbers',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.record(
          {
            from: fc.oneof(
              fc.string(),
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              fc.constant('2026-02-30'),
            ),
            to: fc.oneof(
              fc.string(),
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
            ),
            timezone: fc.oneof(fc.string(), fc.constantFrom('Asia/Kathmandu', 'Etc/GMT+14', 'utc')),
            limit: fc.oneof(fc.integer(), fc.string()),
            sort: fc.string(),
            include_trend: fc.oneof(fc.boolean().map(String), fc.string()),
          },
          { requiredKeys: [] },
        ),
        async (path, query) => {
          const search = new URLSearchParams(
            Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
          );
          const response = await get(`/v1/sms/stats/${path}?${search.toString()}`);
          expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(
            true,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
