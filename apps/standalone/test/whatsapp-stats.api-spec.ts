import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn } from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';
import { seedNumber, seedTemplate } from './whatsapp-messages.fixtures';
import type { SeededNumber } from './whatsapp-messages.fixtures';

const APP_SECRET = 'whatsapp-stats-app-secret';
const SETTLED = ['sent', 'delivered', 'failed'];
const today = () => new Date().toISOString().slice(0, 10);
const recipient = (body: unknown) => {
  const to = (body as { to?: unknown } | undefined)?.to;
  return typeof to === 'string' ? to.replace(/\D/g, '') : '';
};

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * WhatsApp stats with the official SDK, against sends made here through a Graph API stand-in
 * and Meta's status webhooks: the figures come through the outbox, the bus and the stats
 * consumer into the rollups.
 */
describe('WhatsApp stats through the gateway', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let sender: SeededNumber;
  let templateId: string;

  const get = (path: string) =>
    call<{ error?: { code: string; details?: Array<{ param: string }> } }>(
      platform.base,
      'GET',
      path,
      {
        token: acme.api_key.secret,
      },
    );
  const status = async (to: string, value: string, errors?: unknown[]) => {
    const wamid = graph.sent.find((s) => recipient(s.body) === to)?.wamid ?? '';
    const posted = await graph.postWebhook(
      `${platform.base}/webhooks/whatsapp`,
      graph.statusPayload({
        wabaId: sender.waba,
        phoneNumberId: sender.phoneNumberId,
        displayPhoneNumber: sender.phoneNumber.slice(1),
        wamid,
        status: value,
        recipient: to,
        ...(errors ? { errors } : {}),
      } as Parameters<GraphStandIn['statusPayload']>[0]),
      { appSecret: APP_SECRET },
    );
    expect(posted.status).toBe(200);
  };

  beforeAll(async () => {
    graph = await startGraphStandIn();
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: APP_SECRET,
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    sender = await seedNumber(platform.db, acme.workspace.id, { phoneNumber: '+31612340000' });
    const theirs = await seedNumber(platform.db, other.workspace.id, {
      phoneNumber: '+31612340009',
    });
    templateId = (
      await seedTemplate(platform.db, acme.workspace.id, sender, { slug: 'order_update' })
    ).id;
    await seedTemplate(platform.db, other.workspace.id, theirs, { slug: 'order_update' });
    for (const number of [sender, theirs]) {
      graph.addAccount({ wabaId: number.waba });
      graph.addNumber({
        phoneNumberId: number.phoneNumberId,
        wabaId: number.waba,
        displayPhoneNumber: number.phoneNumber,
      });
    }
    const template = {
      slug: 'order_update',
      language: 'en',
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }],
    };
    graph.failNext(1, {
      status: 400,
      code: 131026,
      message: 'Message undeliverable',
      when: (c) => recipient(c.body) === '31655550004',
    });
    const tags = [{ name: 'campaign', value: 'spring' }];
    const sent = await Promise.all(
      ['+31655550001', '+31655550002', '+31655550003', '+31655550004'].map((to) =>
        bird.whatsapp.send({ to, from: sender.phoneNumber, template, tags }),
      ),
    );
    await otherBird.whatsapp.send({ to: '+31655550001', from: theirs.phoneNumber, template });
    await Promise.all(
      sent.map((m) =>
        eventually(
          () => bird.whatsapp.get(m.id),
          (x) => SETTLED.includes(x.status),
        ),
      ),
    );
    await status('31655550001', 'delivered');
    await status('31655550002', 'delivered');
    await status('31655550001', 'read');
    const inbound = await graph.postWebhook(
      `${platform.base}/webhooks/whatsapp`,
      graph.inboundTextPayload({
        wabaId: sender.waba,
        phoneNumberId: sender.phoneNumberId,
        displayPhoneNumber: sender.phoneNumber.slice(1),
        from: '31655550001',
        text: 'Thanks!',
      }),
      { appSecret: APP_SECRET },
    );
    expect(inbound.status).toBe(200);
    await eventually(
      () => bird.whatsapp.stats.summary({ from: today(), to: today() }),
      (s) => s.engagement.read === 1 && s.delivery.delivered === 2 && s.delivery.failed === 1,
    );
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it('counts sends, deliveries, reads and failures, and compares with an empty previous period', async () => {
    const summary = await bird.whatsapp.stats.summary({
      from: today(),
      to: today(),
      compare: 'previous_period',
    });
    expect(summary.delivery).toEqual({
      accepted: 4,
      sent: 3,
      delivered: 2,
      failed: 1,
      rejected: 0,
      delivery_rate: 0.5,
      failure_rate: 0.25,
    });
    expect(summary.engagement).toEqual({ read: 1, read_rate: 0.5 });
    expect(summary.latency.processing?.p50_ms).toEqual(expect.any(Number));
    expect(summary.comparison?.delivery.accepted).toBe(0);
    expect(summary.comparison?.delta).toMatchObject({
      accepted_pct_change: null,
      read_pct_change: null,
      delivery_rate_pp: null,
      read_rate_pp: null,
    });
  });

  it("never counts another workspace's sends", async () => {
    const theirs = await eventually(
      () => otherBird.whatsapp.stats.summary({ from: today(), to: today() }),
      (s) => s.delivery.accepted === 1,
    );
    expect(theirs.delivery.accepted).toBe(1);
    expect((await otherBird.whatsapp.stats.byTag({})).data).toEqual([]);
  });

  it('breaks down by error code, tag, template, category, number and country', async () => {
    expect((await bird.whatsapp.stats.byErrorCode({})).data).toEqual([
      { error_code: 'undeliverable', count: 1 },
    ]);
    const tags = await bird.whatsapp.stats.byTag({});
    expect(tags.data).toEqual([
      expect.objectContaining({
        tag: 'campaign:spring',
        delivery: expect.objectContaining({ accepted: 4, delivered: 2 }),
      }),
    ]);
    expect((await bird.whatsapp.stats.byTemplate({})).data[0]).toMatchObject({
      template_id: templateId,
      engagement: { read: 1 },
    });
    expect((await bird.whatsapp.stats.byTemplateCategory({})).data[0]).toMatchObject({
      category: 'utility',
    });
    expect((await bird.whatsapp.stats.byPhoneNumber({})).data[0]).toMatchObject({
      phone_number: sender.phoneNumber,
      shared: false,
    });
    expect((await bird.whatsapp.stats.byCountry({})).data[0]).toMatchObject({
      country: 'NL',
      delivery: expect.objectContaining({ accepted: 4 }),
    });
  });

  it('filters by template slug or id and by tag name, and answers zero-filled series', async () => {
    for (const template of ['order_update', templateId])
      expect(
        (await bird.whatsapp.stats.summary({ from: today(), to: today(), template })).delivery
          .accepted,
      ).toBe(4);
    expect(
      (await bird.whatsapp.stats.summary({ from: today(), to: today(), tag: 'campaign' })).delivery
        .accepted,
    ).toBe(4);
    expect(
      (await bird.whatsapp.stats.summary({ from: today(), to: today(), tag: 'campaign:autumn' }))
        .delivery.accepted,
    ).toBe(0);
    const daily = await bird.whatsapp.stats.daily({ to: today() });
    expect(daily.data).toHaveLength(31);
    expect(daily.data[30]).toMatchObject({
      bucket: today(),
      delivery: { accepted: 4 },
      engagement: { read: 1 },
    });
    const hourly = await bird.whatsapp.stats.hourly({});
    expect(hourly.data.reduce((sum, p) => sum + p.delivery.accepted, 0)).toBe(4);
  });

  it('counts inbound messages by number and day', async () => {
    const summary = await eventually(
      () => bird.whatsapp.stats.inbound.summary({}),
      (s) => s.received === 1,
    );
    expect(summary.received).toBe(1);
    expect((await bird.whatsapp.stats.inbound.byPhoneNumber({})).data).toEqual([
      { phone_number: sender.phoneNumber, received: 1 },
    ]);
    expect((await bird.whatsapp.stats.inbound.daily({ from: today(), to: today() })).data).toEqual([
      { bucket: today(), received: 1 },
    ]);
    expect((await bird.whatsapp.stats.inbound.hourly({})).data).toHaveLength(169);
  });

  it('rebuilds the rollups from the stored timelines to the same figures', async () => {
    const asked = [
      () => bird.whatsapp.stats.summary({ from: today(), to: today() }),
      () => bird.whatsapp.stats.byTag({}),
      () => bird.whatsapp.stats.byErrorCode({}),
      () => bird.whatsapp.stats.inbound.byPhoneNumber({}),
    ];
    const before = await Promise.all(asked.map((ask) => ask()));
    await platform.db.query('DELETE FROM sms_whatsapp.whatsapp_stats_rollups');
    await platform.db.query('DELETE FROM sms_whatsapp.whatsapp_stats_daily_rollups');
    const output = execFileSync(
      process.execPath,
      [join(__dirname, '../../../tools/rebuild-stats.mjs'), '--channel', 'whatsapp'],
      { env: { ...process.env, DATABASE_URL: platform.databaseUrl }, encoding: 'utf8' },
    );
    expect(output).toMatch(/rebuild-stats whatsapp: done/);
    const after = await Promise.all(asked.map((ask) => ask()));
    const figures = (answers: unknown[]) =>
      JSON.stringify(answers, (key, value: unknown) => (key === 'data_as_of' ? undefined : value));
    expect(figures(after)).toBe(figures(before));
  });

  it('refuses every broken rule with 422 naming the parameter, and generated bad queries with 4xx', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/whatsapp/stats/summary?from=2026-05-01&to=2026-05-02T00:00:00Z', 'E01150', 'to'],
      ['/v1/whatsapp/stats/daily?from=2025-01-01&to=2026-01-01', 'E01151', 'from'],
      ['/v1/whatsapp/stats/summary?template=order_update&tag=campaign', 'E01153', 'template'],
      ['/v1/whatsapp/stats/tags?limit=201', 'E01001', 'limit'],
      [
        '/v1/whatsapp/stats/inbound/hourly?from=2026-05-01T00:00:00%2B01:00&timezone=Europe/Paris',
        'E01155',
        'from',
      ],
    ];
    for (const [path, code, param] of cases) {
      const response = await get(path);
      expect([path, response.status, response.body.error?.code]).toEqual([path, 422, code]);
      expect(response.body.error?.details?.map((d) => d.param)).toContain(param);
    }
    const paths = [
      'summary',
      'daily',
      'hourly',
      'tags',
      'error-codes',
      'inbound/summary',
      'inbound/phone-numbers',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.record(
          {
            from: fc.string(),
            to: fc.string(),
            timezone: fc.string(),
            limit: fc.string(),
            tag: fc.string(),
            template: fc.string(),
          },
          { requiredKeys: [] },
        ),
        async (path, query) => {
          const response = await get(
            `/v1/whatsapp/stats/${path}?${new URLSearchParams(query).toString()}`,
          );
          expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(
            true,
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
