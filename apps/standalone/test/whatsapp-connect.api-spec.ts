import { BirdClient, BirdNotFoundError } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  startGraphStandIn,
  startLegacyChannelSource,
} from '@switchboard/testing';
import type {
  CreatedWorkspace,
  GraphStandIn,
  LegacyChannel,
  LegacyChannelSource,
} from '@switchboard/testing';
import fc from 'fast-check';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const WABA = '102290129340398';
const PHONE_ID = '106540352242922';
const PHONE = '+31612340001';
const PIN = '123456';
/** A second number of the same account, migrated from the legacy channel source. */
const LEGACY_PHONE_ID = '106540352242923';
const LEGACY_PHONE = '+31612340002';
const LEGACY_PIN = '654321';
const CP_KEY = 'cp-access-key';
/** Two more accounts with a number each, for channel-group pages. */
const MORE = [
  { waba: '202290129340398', phoneId: '206540352242922', phone: '+31612340003' },
  { waba: '302290129340398', phoneId: '306540352242922', phone: '+31612340004' },
];

interface Envelope {
  error: { code: string; type: string; vendor_code?: string; details?: Array<{ param: string }> };
}
interface ConnectorBody {
  id: string;
  workspaceId: string;
  connectorTemplateRef: string;
  name: string;
  arguments: Record<string, unknown>;
  channel: { channelId: string; platform: string };
  dataCapture: { captureEndpoint: string };
}
interface ChannelGroupPage {
  results: Array<{ platformId: string; platformGroupId: string; channelIds: string[] }>;
  nextPageToken: string | null;
}

/** 150 legacy channels, so finding the one migrated takes two pages of 100. */
function legacyChannels(): LegacyChannel[] {
  return Array.from({ length: 150 }, (_, i) => ({
    id: `ch-${i}`,
    name: `Channel ${i}`,
    settings: {
      waba_id: i === 137 ? WABA : `9${i}`,
      msisdn: i === 137 ? LEGACY_PHONE.slice(1) : `3161200${String(i).padStart(4, '0')}`,
      phone_number_id: i === 137 ? LEGACY_PHONE_ID : `8${i}`,
      pin: i === 137 ? LEGACY_PIN : '000000',
      display_name: `Channel ${i}`,
    },
  }));
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Connecting WhatsApp numbers through the workspace API (AccessKey), against a Graph stand-in
 * and a legacy channel source the test starts, and reading them with the official SDK.
 */
describe('WhatsApp connectors, channel groups, numbers and business accounts', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let legacy: LegacyChannelSource;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;

  const workspaceApi = <T>(
    workspace: CreatedWorkspace,
    method: string,
    path: string,
    body?: unknown,
    accessKey = workspace.access_key.secret,
  ) =>
    call<T>(platform.base, method, `/workspaces/${workspace.workspace.id}${path}`, {
      headers: { authorization: `AccessKey ${accessKey}` },
      body,
    });
  const connect = (workspace: CreatedWorkspace, args: Record<string, unknown>, name = 'Support') =>
    workspaceApi<ConnectorBody & Envelope>(workspace, 'POST', '/connectors', {
      connectorTemplateRef: 'whatsapp',
      name,
      arguments: args,
    });
  const rows = async (sql: string, params: unknown[] = []) =>
    (await platform.db.query(sql, params)).rows as Array<Record<string, unknown>>;

  beforeAll(async () => {
    graph = await startGraphStandIn();
    graph.addAccount({
      wabaId: WABA,
      name: 'Acme Support',
      accountReviewStatus: 'APPROVED',
      businessVerificationStatus: 'verified',
      ownerBusiness: { id: '5550001', name: 'Acme Holding' },
    });
    graph.addNumber({
      phoneNumberId: PHONE_ID,
      wabaId: WABA,
      displayPhoneNumber: '+31 6 1234 0001',
      verifiedName: 'Acme',
      qualityRating: 'GREEN',
      messagingLimitTier: 'TIER_1K',
      throughputLevel: 'STANDARD',
      status: 'CONNECTED',
      nameStatus: 'APPROVED',
      pin: PIN,
      registered: false,
      profile: { about: 'We answer', email: 'help@acme.test', vertical: 'RETAIL' },
    });
    graph.addNumber({
      phoneNumberId: LEGACY_PHONE_ID,
      wabaId: WABA,
      displayPhoneNumber: '+31 6 1234 0002',
      verifiedName: 'Acme Sales',
      pin: LEGACY_PIN,
      registered: false,
    });
    for (const [i, more] of MORE.entries()) {
      graph.addAccount({ wabaId: more.waba, name: `Account ${i}` });
      graph.addNumber({
        phoneNumberId: more.phoneId,
        wabaId: more.waba,
        displayPhoneNumber: more.phone,
        verifiedName: `Number ${i}`,
      });
    }
    legacy = await startLegacyChannelSource({ accessKey: CP_KEY, channels: legacyChannels() });
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      CP_URL: legacy.url,
      WHATSAPP_META_SYNC_SECONDS: '5',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([graph?.stop(), legacy?.stop()]);
  });

  it("refuses a wrong PIN with Meta's code as vendor_code, and writes nothing", async () => {
    graph.clearCalls();
    const refused = await connect(acme, {
      wabaId: WABA,
      phoneId: PHONE_ID,
      phoneNumber: PHONE,
      phoneRegistrationPin: '111111',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'E05010', vendor_code: '133005' });
    expect(graph.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /${PHONE_ID}`,
      `POST /${PHONE_ID}/register`,
    ]);
    for (const table of ['whatsapp_numbers', 'whatsapp_business_accounts', 'connectors'])
      expect(await rows(`SELECT 1 FROM sms_whatsapp.${table}`)).toEqual([]);
  });

  it('answers 503 with nothing written while Meta is unavailable', async () => {
    graph.failFor(60_000, { status: 503, path: `/${WABA}/subscribed_apps` });
    const unavailable = await connect(acme, {
      wabaId: WABA,
      phoneId: PHONE_ID,
      phoneNumber: PHONE,
      phoneRegistrationPin: PIN,
    });
    graph.clearFailures();
    expect(unavailable.status).toBe(503);
    expect(unavailable.body.error.code).toBe('E05007');
    expect(await rows('SELECT 1 FROM sms_whatsapp.whatsapp_numbers')).toEqual([]);
  }, 60_000);

  it('connects a number: read it, register, subscribe, read both with the token; then it is readable everywhere', async () => {
    graph.clearCalls();
    const created = await connect(acme, {
      wabaId: WABA,
      phoneId: PHONE_ID,
      phoneNumber: PHONE,
      phoneRegistrationPin: PIN,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      workspaceId: acme.workspace.id,
      connectorTemplateRef: 'whatsapp',
      name: 'Support',
      arguments: { wabaId: WABA, phoneId: PHONE_ID, phoneNumber: PHONE },
      channel: { platform: 'whatsapp' },
    });
    expect(created.body.arguments).not.toHaveProperty('phoneRegistrationPin');
    expect(created.body.dataCapture.captureEndpoint).toMatch(/\/webhooks\/whatsapp$/);
    expect(graph.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /${PHONE_ID}`,
      `POST /${PHONE_ID}/register`,
      `POST /${WABA}/subscribed_apps`,
      `GET /${PHONE_ID}`,
      `GET /${WABA}`,
    ]);
    expect(graph.calls[1].body).toEqual({ messaging_product: 'whatsapp', pin: PIN });
    for (const c of graph.calls)
      expect(c.headers.authorization).toBe(`Bearer ${graph.accessToken}`);
    expect(graph.isRegistered(PHONE_ID) && graph.isSubscribed(WABA)).toBe(true);
    const [stored] = await rows('SELECT arguments FROM sms_whatsapp.connectors');
    expect(JSON.stringify(stored.arguments)).not.toContain(PIN);

    const numbers = await bird.whatsapp.numbers.list();
    expect(numbers.data).toHaveLength(1);
    const number = numbers.data[0];
    expect(number).toMatchObject({
      waba: WABA,
      phone_number: PHONE,
      name: 'Support',
      scope: 'workspace',
      status: 'connected',
      quality_rating: 'green',
      messaging_limit: 'tier_1k',
      throughput_level: 'standard',
    });
    expect(number.id).toMatch(/^wan_/);
    expect(number.meta_synced_at).toEqual(expect.any(String));
    expect(await bird.whatsapp.numbers.get(number.id)).toMatchObject({ id: number.id, waba: WABA });
    const events = await bird.whatsapp.numbers.listEvents(number.id);
    expect(events.data.map((e) => e.type).sort()).toEqual([
      'whatsapp_number.created',
      'whatsapp_number.status_changed',
    ]);
    const profile = await bird.whatsapp.numbers.profile.get(number.id);
    expect(profile).toMatchObject({
      display_name: 'Acme',
      display_name_status: 'approved',
      about: 'We answer',
      email: 'help@acme.test',
      vertical: 'retail',
    });

    const accounts = await bird.whatsapp.businessAccounts.list();
    expect(accounts.data).toHaveLength(1);
    const account = accounts.data[0];
    expect(account).toMatchObject({
      waba: WABA,
      name: 'Acme Support',
      status: 'active',
      account_review_status: 'approved',
      business_verification_status: 'verified',
      portfolio: { meta_id: '5550001', name: 'Acme Holding' },
    });
    for (const ref of [account.id, WABA])
      expect(await bird.whatsapp.businessAccounts.get(ref)).toMatchObject({ id: account.id });

    const groups = await workspaceApi<ChannelGroupPage>(acme, 'GET', '/channel-groups');
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual({
      results: [
        expect.objectContaining({
          platformId: 'whatsapp',
          platformGroupId: WABA,
          platformGroupName: 'Acme Support',
          channelIds: [created.body.channel.channelId],
        }),
      ],
      nextPageToken: null,
    });
  });

  it('connecting the same number again refreshes it: 200, the same connector, one number', async () => {
    const again = await connect(
      acme,
      { wabaId: WABA, phoneId: PHONE_ID, phoneNumber: PHONE },
      'Support desk',
    );
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('Support desk');
    expect(await rows('SELECT id FROM sms_whatsapp.connectors')).toHaveLength(1);
    const numbers = await bird.whatsapp.numbers.list();
    expect(numbers.data.map((n) => n.name)).toEqual(['Support desk']);
  });

  it('replays a connect retried with its Idempotency-Key without asking Meta again', async () => {
    const key = `connect-${Date.now()}`;
    const once = () =>
      call<ConnectorBody & Envelope>(
        platform.base,
        'POST',
        `/workspaces/${acme.workspace.id}/connectors`,
        {
          headers: { authorization: `AccessKey ${acme.access_key.secret}`, 'idempotency-key': key },
          body: {
            connectorTemplateRef: 'whatsapp',
            name: 'Support desk',
            arguments: { wabaId: WABA, phoneId: PHONE_ID, phoneNumber: PHONE },
          },
        },
      );
    const first = await once();
    expect(first.status).toBeLessThan(300);
    graph.clearCalls();
    const again = await once();
    expect(again.status).toBe(first.status);
    expect(again.body.id).toBe(first.body.id);
    // Nothing asked of Meta again (reads of a template sync may run beside it).
    expect(graph.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('migrates a legacy channel, paging the legacy list with the access key', async () => {
    graph.clearCalls();
    const migrated = await connect(acme, {
      isCpMigrated: true,
      cpChannelId: 'ch-137',
      cpAccessKey: CP_KEY,
    });
    expect(migrated.status).toBe(201);
    expect(migrated.body.arguments).toEqual({
      isCpMigrated: true,
      cpChannelId: 'ch-137',
      wabaId: WABA,
      phoneId: LEGACY_PHONE_ID,
      phoneNumber: LEGACY_PHONE,
    });
    expect(legacy.calls.map((c) => [c.query.offset, c.query.platform])).toEqual([
      ['0', 'whatsapp'],
      ['100', 'whatsapp'],
    ]);
    expect(legacy.calls.every((c) => c.headers.authorization === `AccessKey ${CP_KEY}`)).toBe(true);
    // The first call of the connect (a template sync of an earlier connect may be running beside it).
    expect(graph.callsTo('POST', `/${LEGACY_PHONE_ID}/register`)[0].body).toEqual({
      messaging_product: 'whatsapp',
      pin: LEGACY_PIN,
    });
    const numbers = await bird.whatsapp.numbers.list({ phone_number: '+31 6 1234 0002' });
    expect(numbers.data.map((n) => n.phone_number)).toEqual([LEGACY_PHONE]);
    const groups = await workspaceApi<ChannelGroupPage>(acme, 'GET', '/channel-groups');
    expect(groups.body.results[0].channelIds).toHaveLength(2);

    const unknown = await connect(acme, {
      isCpMigrated: true,
      cpChannelId: 'ch-999',
      cpAccessKey: CP_KEY,
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'E04072']);
    const refused = await connect(acme, {
      isCpMigrated: true,
      cpChannelId: 'ch-137',
      cpAccessKey: 'wrong',
    });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'E01041']);
  });

  it('pages channel groups with nextPageToken', async () => {
    for (const more of MORE)
      expect(
        (await connect(acme, { wabaId: more.waba, phoneId: more.phoneId, phoneNumber: more.phone }))
          .status,
      ).toBe(201);
    const first = await workspaceApi<ChannelGroupPage>(acme, 'GET', '/channel-groups?limit=2');
    expect(first.body.results.map((g) => g.platformGroupId)).toEqual([WABA, MORE[0].waba]);
    expect(first.body.nextPageToken).toEqual(expect.any(String));
    const second = await workspaceApi<ChannelGroupPage>(
      acme,
      'GET',
      `/channel-groups?limit=2&pageToken=${encodeURIComponent(first.body.nextPageToken!)}`,
    );
    expect(second.body).toEqual({
      results: [expect.objectContaining({ platformGroupId: MORE[1].waba })],
      nextPageToken: null,
    });
    for (const query of ['limit=0', 'limit=101', 'pageToken=bogus'])
      expect((await workspaceApi(acme, 'GET', `/channel-groups?${query}`)).status).toBe(422);
    const accounts = await bird.whatsapp.businessAccounts.list({ limit: 2 });
    expect(accounts.data).toHaveLength(2);
    expect(accounts.next_cursor).toEqual(expect.any(String));
  });

  it("filters numbers by the SDK's filters: waba, phone_number, status, scope", async () => {
    const phones = async (query: Parameters<typeof bird.whatsapp.numbers.list>[0]) =>
      (await bird.whatsapp.numbers.list(query)).data.map((n) => n.phone_number).sort();
    expect(await phones({ waba: WABA })).toEqual([PHONE, LEGACY_PHONE]);
    expect(await phones({ waba: MORE[0].waba })).toEqual([MORE[0].phone]);
    expect(await phones({ waba: '999' })).toEqual([]);
    expect(await phones({ phone_number: '0031612340003' })).toEqual([MORE[0].phone]);
    expect(await phones({ status: ['connected'], scope: 'workspace' })).toHaveLength(4);
    expect(await phones({ status: ['banned'] })).toEqual([]);
    expect(await phones({ scope: 'system' })).toEqual([]);
    const oldest = await bird.whatsapp.numbers.list({ order: 'asc', limit: 1 });
    expect(oldest.data.map((n) => n.phone_number)).toEqual([PHONE]);
  });

  it('another workspace sees nothing and cannot take what Acme holds', async () => {
    const [number] = (await bird.whatsapp.numbers.list({ phone_number: PHONE })).data;
    await expect(otherBird.whatsapp.numbers.get(number.id)).rejects.toBeInstanceOf(
      BirdNotFoundError,
    );
    await expect(otherBird.whatsapp.numbers.listEvents(number.id)).rejects.toBeInstanceOf(
      BirdNotFoundError,
    );
    await expect(otherBird.whatsapp.businessAccounts.get(WABA)).rejects.toBeInstanceOf(
      BirdNotFoundError,
    );
    expect((await otherBird.whatsapp.numbers.list()).data).toEqual([]);
    expect((await otherBird.whatsapp.businessAccounts.list()).data).toEqual([]);
    const theirs = await workspaceApi<ChannelGroupPage>(other, 'GET', '/channel-groups');
    expect(theirs.body).toEqual({ results: [], nextPageToken: null });
    // Acme's workspace in the path with Other's access key.
    const crossed = await workspaceApi<Envelope>(
      acme,
      'GET',
      '/channel-groups',
      undefined,
      other.access_key.secret,
    );
    expect(crossed.status).toBe(403);
    const taken = await connect(other, { wabaId: WABA, phoneId: PHONE_ID, phoneNumber: PHONE });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'E06020']);
    graph.addNumber({
      phoneNumberId: '406540352242922',
      wabaId: WABA,
      displayPhoneNumber: '+31612340005',
    });
    const account = await connect(other, {
      wabaId: WABA,
      phoneId: '406540352242922',
      phoneNumber: '+31612340005',
    });
    expect([account.status, account.body.error.code]).toEqual([409, 'E06021']);
  });

  it('connects the same number sent twice at once exactly once', async () => {
    const number = { waba: '502290129340398', phoneId: '506540352242922', phone: '+31612340006' };
    graph.addAccount({ wabaId: number.waba, name: 'Concurrent' });
    graph.addNumber({
      phoneNumberId: number.phoneId,
      wabaId: number.waba,
      displayPhoneNumber: number.phone,
    });
    const args = { wabaId: number.waba, phoneId: number.phoneId, phoneNumber: number.phone };
    const answers = await Promise.all([connect(acme, args), connect(acme, args)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    const stored = await rows(
      `SELECT (SELECT count(*) FROM sms_whatsapp.whatsapp_numbers WHERE phone_number_id = $1) AS numbers,
         (SELECT count(*) FROM sms_whatsapp.whatsapp_business_accounts WHERE waba = $2) AS accounts,
         (SELECT count(*) FROM sms_whatsapp.channel_groups WHERE platform_group_id = $2) AS groups`,
      [number.phoneId, number.waba],
    );
    expect(stored).toEqual([{ numbers: '1', accounts: '1', groups: '1' }]);
  });

  it('needs an access key of the workspace', async () => {
    const path = `/workspaces/${acme.workspace.id}/channel-groups`;
    expect((await call(platform.base, 'GET', path)).status).toBe(401);
    expect((await call(platform.base, 'GET', path, { token: acme.api_key.secret })).status).toBe(
      401,
    );
  });

  it('refuses bad connector bodies with 4xx naming the field, never a 500', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('', '+31612340009', '123456', '12345', '0031612340009', '777'),
    );
    const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text));
    const args = fc.record(
      {
        wabaId: value,
        phoneId: value,
        phoneNumber: value,
        phoneRegistrationPin: value,
        isCpMigrated: value,
        cpChannelId: value,
        cpAccessKey: value,
        extra: value,
      },
      { requiredKeys: [] },
    );
    const body = fc.record(
      {
        connectorTemplateRef: fc.oneof(fc.constant('whatsapp'), value),
        name: fc.oneof(fc.constant('n'), value),
        arguments: fc.oneof(args, value),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const response = await workspaceApi<Envelope>(acme, 'POST', '/connectors', input);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.body.error.code).toMatch(/^E\d{5}$/);
        if (response.body.error.type === 'validation_error')
          expect(response.body.error.details?.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it("re-reads numbers from Meta periodically, recording the changes as the number's events", async () => {
    const [number] = (await bird.whatsapp.numbers.list({ phone_number: PHONE })).data;
    graph.addNumber({
      phoneNumberId: PHONE_ID,
      wabaId: WABA,
      displayPhoneNumber: '+31 6 1234 0001',
      verifiedName: 'Acme',
      qualityRating: 'YELLOW',
      messagingLimitTier: 'TIER_10K',
      status: 'FLAGGED',
    });
    const events = await eventually(
      () => bird.whatsapp.numbers.listEvents(number.id),
      (page) => page.data.some((e) => e.type === 'whatsapp_number.quality_rating_updated'),
    );
    const types = events.data.map((e) => [e.type, e.metadata]);
    expect(types).toEqual(
      expect.arrayContaining([
        ['whatsapp_number.quality_rating_updated', { from: 'green', to: 'yellow' }],
        ['whatsapp_number.messaging_limit_updated', { from: 'tier_1k', to: 'tier_10k' }],
        ['whatsapp_number.status_changed', { from: 'connected', to: 'flagged' }],
      ]),
    );
    const reread = await bird.whatsapp.numbers.get(number.id);
    expect(reread).toMatchObject({ status: 'flagged', quality_rating: 'yellow' });
    expect(Date.parse(reread.meta_synced_at!)).toBeGreaterThan(Date.parse(number.meta_synced_at!));
  }, 60_000);
});
