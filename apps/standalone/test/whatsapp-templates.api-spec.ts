import { randomUUID } from 'node:crypto';
import { BirdClient } from '@messagebird/sdk';
import type { WhatsAppTemplate } from '@messagebird/sdk';
import { call, createWorkspace, startGraphStandIn } from '@switchboard/testing';
import type { CreatedWorkspace, GraphStandIn, SeedTemplate } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const WABA = '102290129340398';
const OTHER_WABA = '102290129340399';
const APP_SECRET = 'templates-app-secret';

const body = (text: string) => [
  { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
  { type: 'BODY', text, example: { body_text: [['Ada', 'A-1']] } },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://shop.example/t/{{1}}', example: ['A-1'] },
      { type: 'QUICK_REPLY', text: 'Thanks' },
    ],
  },
];
const ORDER_EN = body('Hi {{1}}, order {{2}} has shipped.');
const template = (
  over: Partial<SeedTemplate> & { name: string; language: string },
): SeedTemplate => ({
  status: 'APPROVED',
  category: 'UTILITY',
  components: ORDER_EN,
  ...over,
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Connects a number of the account through the workspace API; the account's channel group. */
async function connectAccount(
  platform: TestPlatform,
  graph: GraphStandIn,
  workspace: CreatedWorkspace,
  waba: string,
  phoneId: string,
) {
  graph.addAccount({ wabaId: waba, name: `Account ${waba}` });
  graph.addNumber({
    phoneNumberId: phoneId,
    wabaId: waba,
    displayPhoneNumber: `+31 6 ${phoneId.slice(-8)}`,
    verifiedName: 'Acme',
    pin: '123456',
    registered: false,
  });
  const workspacePath = `/workspaces/${workspace.workspace.id}`;
  const authorization = `AccessKey ${workspace.access_key.secret}`;
  const connected = await call(platform.base, 'POST', `${workspacePath}/connectors`, {
    headers: { authorization },
    body: {
      connectorTemplateRef: 'whatsapp',
      name: 'Support',
      arguments: {
        wabaId: waba,
        phoneId,
        phoneNumber: `+316${phoneId.slice(-8)}`,
        phoneRegistrationPin: '123456',
      },
    },
  });
  if (connected.status !== 201)
    throw new Error(`connect: ${connected.status} ${JSON.stringify(connected.body)}`);
  const groups = await call<{ results: Array<{ id: string; platformGroupId: string }> }>(
    platform.base,
    'GET',
    `${workspacePath}/channel-groups`,
    { headers: { authorization } },
  );
  return groups.body.results.find((group) => group.platformGroupId === waba)!.id;
}

/**
 * WhatsApp templates end to end: a Graph stand-in holds the account's templates at Meta (paged
 * two per page), the workspace API's sync-templates imports them, the SDK reads them back.
 */
describe('WhatsApp templates through the gateway', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let channelGroupId: string;
  let otherChannelGroupId: string;
  const ids: Record<string, string> = {};

  const syncTemplates = (
    workspace: CreatedWorkspace,
    groupId: string,
    workspaceId = workspace.workspace.id,
  ) =>
    call<{ status: string; message: string }>(
      platform.base,
      'POST',
      `/workspaces/${workspaceId}/channel-groups/${groupId}/sync-templates`,
      { body: {}, headers: { authorization: `AccessKey ${workspace.access_key.secret}` } },
    );

  /** Requests a sync and waits until it is done: no sync left in the queue, one finished since. */
  async function syncAndWait(groupId: string) {
    const requested = new Date();
    const answer = await syncTemplates(acme, groupId);
    expect(answer.status).toBe(202);
    await syncsDone(requested);
  }

  async function syncsDone(since: Date) {
    const done = await eventually(
      async () => {
        const { rows } = await platform.db.query<{ waiting: number }>(
          "SELECT count(*)::int AS waiting FROM sms_whatsapp.jobs WHERE queue = 'whatsapp.template_sync'",
        );
        const at = await syncedAt(WABA);
        return rows[0].waiting === 0 && at !== null && at >= since;
      },
      (finished) => finished,
    );
    expect(done).toBe(true);
  }

  async function syncedAt(waba: string): Promise<Date | null> {
    const { rows } = await platform.db.query<{ templates_synced_at: Date | null }>(
      'SELECT templates_synced_at FROM sms_whatsapp.whatsapp_business_accounts WHERE waba = $1',
      [waba],
    );
    return rows[0]?.templates_synced_at ?? null;
  }

  beforeAll(async () => {
    graph = await startGraphStandIn({ templatePageSize: 2 });
    platform = await startTestPlatform({
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_TEMPLATE_SYNC_INTERVAL_SECONDS: '86400',
      RATE_LIMITS: 'api_list=100000,read=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    channelGroupId = await connectAccount(platform, graph, acme, WABA, '106540352242922');
    otherChannelGroupId = await connectAccount(
      platform,
      graph,
      other,
      OTHER_WABA,
      '106540352242923',
    );
    ids.enUS = graph.addTemplate(WABA, template({ name: 'order_shipped', language: 'en_US' })).id;
    ids.ptBR = graph.addTemplate(
      WABA,
      template({
        name: 'order_shipped',
        language: 'pt_BR',
        components: body('Olá {{1}}, o pedido {{2}} foi enviado.'),
      }),
    ).id;
    ids.de = graph.addTemplate(
      WABA,
      template({ name: 'order_shipped', language: 'de', status: 'PENDING' }),
    ).id;
    ids.promo = graph.addTemplate(
      WABA,
      template({
        name: 'spring_promo',
        language: 'en_US',
        status: 'REJECTED',
        category: 'MARKETING',
        rejected_reason: 'INCORRECT_CATEGORY',
        components: [
          {
            type: 'BODY',
            text: 'Spring sale: {{discount}} off',
            example: { body_text_named_params: [{ param_name: 'discount', example: '20%' }] },
          },
        ],
      }),
    ).id;
    ids.otp = graph.addTemplate(
      WABA,
      template({
        name: 'login_code',
        language: 'en',
        category: 'AUTHENTICATION',
        quality_score: { score: 'GREEN' },
        components: [
          {
            type: 'BODY',
            add_security_recommendation: true,
            text: '*{{1}}* is your verification code.',
          },
          { type: 'FOOTER', code_expiration_minutes: 10, text: 'This code expires in 10 minutes.' },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
        ],
      }),
    ).id;
    graph.addTemplate(OTHER_WABA, template({ name: 'other_only', language: 'en' }));
    await syncAndWait(channelGroupId);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it('accepts the sync at once with the workspace API’s answer, and reads every page Meta serves', async () => {
    graph.clearCalls();
    const answer = await syncTemplates(acme, channelGroupId);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ status: 'accepted', message: expect.any(String) });
    await eventually(
      () => Promise.resolve(graph.callsTo('GET', new RegExp(`^/${WABA}/message_templates`)).length),
      (pages) => pages >= 3,
    );
    // Five templates at two a page: three pages, following paging.next.
    expect(
      graph.callsTo('GET', new RegExp(`^/${WABA}/message_templates`)).length,
    ).toBeGreaterThanOrEqual(3);
    await syncsDone(new Date(0));
  });

  it('never runs two syncs of one account at once, however many are requested together', async () => {
    graph.delayMs = 150;
    graph.clearCalls();
    try {
      const requested = new Date();
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => syncTemplates(acme, channelGroupId)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
      const pages = () => graph.callsTo('GET', new RegExp(`^/${WABA}/message_templates`));
      await syncsDone(requested);
      // A first page starts a sync; each sync reads three pages before the next one starts. The
      // four requests are served by at most one sync each (fewer when requests made while one
      // waits fold into it, which a loaded machine does not always give), plus a periodic or
      // connect-time sync that may have been waiting already.
      const starts = pages().map((call) => call.query.after === undefined);
      expect(starts.length).toBeGreaterThanOrEqual(3);
      expect(starts.length).toBeLessThanOrEqual(15);
      starts.forEach((start, index) => expect(start).toBe(index % 3 === 0));
    } finally {
      graph.delayMs = 0;
    }
  });

  it('imports one template per name, each language with its status, and the aggregate status', async () => {
    const page = await bird.whatsapp.templates.list();
    expect(page.data.map((t) => t.slug).sort()).toEqual([
      'login_code',
      'order_shipped',
      'spring_promo',
    ]);
    const order = page.data.find((t) => t.slug === 'order_shipped') as WhatsAppTemplate;
    expect(order).toEqual({
      id: expect.stringMatching(/^wat_[0-9a-z]{26}$/),
      slug: 'order_shipped',
      slug_editable: false,
      name: 'order_shipped',
      description: null,
      scope: 'workspace',
      waba: WABA,
      category: 'utility',
      status: 'active',
      default_language: 'en-US',
      on_missing_language: 'fail',
      language_source_required: false,
      available_languages: ['en-US', 'pt-BR'],
      languages: {
        'en-US': { status: 'approved', submitted_at: expect.any(String), editable_at: null },
        'pt-BR': { status: 'approved', submitted_at: expect.any(String), editable_at: null },
        de: { status: 'pending', submitted_at: expect.any(String), editable_at: null },
      },
      draft_version_id: null,
      live_version_id: expect.stringMatching(/^wav_[0-9a-z]{26}$/),
      pending_version_id: order.live_version_id,
      last_submitted_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const promo = page.data.find((t) => t.slug === 'spring_promo') as WhatsAppTemplate;
    expect(promo).toMatchObject({
      status: 'rejected',
      category: 'marketing',
      available_languages: [],
      live_version_id: null,
      languages: {
        'en-US': {
          status: 'rejected',
          rejection: { category: 'incorrect_category', reason: null, recommendation: null },
        },
      },
    });
  });

  it('reads a template by slug or id, its versions, and each language’s content', async () => {
    const bySlug = await bird.whatsapp.templates.get('order_shipped');
    expect(await bird.whatsapp.templates.get(bySlug.id)).toEqual(bySlug);
    const versions = await bird.whatsapp.templates.versions.list('order_shipped');
    expect(versions.data).toEqual([
      {
        id: bySlug.live_version_id,
        template_id: bySlug.id,
        version_number: 1,
        submitted_at: expect.any(String),
        languages: bySlug.languages,
        created_at: expect.any(String),
      },
    ]);
    const version = await bird.whatsapp.templates.versions.get(bySlug.id, bySlug.live_version_id!);
    expect(Object.keys(version.languages).sort()).toEqual(['de', 'en-US', 'pt-BR']);
    expect(version.languages['en-US']).toEqual({
      status: 'approved',
      components: [
        {
          type: 'header',
          format: 'text',
          text: 'Order {{1}}',
          example_parameters: [{ type: 'text', text: 'A-1' }],
        },
        {
          type: 'body',
          text: 'Hi {{1}}, order {{2}} has shipped.',
          example_parameters: [
            { type: 'text', text: 'Ada' },
            { type: 'text', text: 'A-1' },
          ],
        },
        { type: 'footer', text: 'Reply STOP to opt out' },
        {
          type: 'buttons',
          buttons: [
            {
              type: 'url',
              text: 'Track',
              url: 'https://shop.example/t/{{1}}',
              example_parameters: [{ type: 'text', text: 'A-1' }],
            },
            { type: 'quick_reply', text: 'Thanks' },
          ],
        },
      ],
    });
    const languages = await bird.whatsapp.templates.versions.languages.list(
      'order_shipped',
      version.id,
    );
    expect(languages.data).toEqual([
      {
        language: 'de',
        status: 'pending',
        revision: 1,
        content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
      {
        language: 'en-US',
        status: 'approved',
        revision: 1,
        content_hash: expect.stringMatching(/^sha256:/),
      },
      {
        language: 'pt-BR',
        status: 'approved',
        revision: 1,
        content_hash: expect.stringMatching(/^sha256:/),
      },
    ]);
    // Meta's underscore form addresses the same language.
    const ptBR = await bird.whatsapp.templates.versions.languages.get(
      'order_shipped',
      version.id,
      'pt_BR',
    );
    expect(ptBR).toEqual({
      language: 'pt-BR',
      components: expect.arrayContaining([
        {
          type: 'body',
          text: 'Olá {{1}}, o pedido {{2}} foi enviado.',
          example_parameters: expect.any(Array),
        },
      ]),
      status: 'approved',
      revision: 1,
      content_hash: languages.data[2].content_hash,
      category: 'utility',
      submitted_at: expect.any(String),
      approved_at: expect.any(String),
      updated_at: expect.any(String),
      updated_by: null,
    });
    const otp = await bird.whatsapp.templates.get('login_code');
    const otpEn = await bird.whatsapp.templates.versions.languages.get(
      otp.id,
      otp.live_version_id!,
      'en',
    );
    expect(otpEn.quality).toEqual({ current_score: 'green', updated_at: expect.any(String) });
    expect(otpEn.components).toEqual([
      {
        type: 'body',
        text: '*{{1}}* is your verification code.',
        add_security_recommendation: true,
      },
      { type: 'footer', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
      { type: 'buttons', buttons: [{ type: 'otp', otp_type: 'copy_code', text: 'Copy code' }] },
    ]);
  });

  it('filters the list and pages it with cursors', async () => {
    const slugs = async (query: Parameters<typeof bird.whatsapp.templates.list>[0]) =>
      (await bird.whatsapp.templates.list(query)).data.map((t) => t.slug).sort();
    expect(await slugs({ status: ['rejected'] })).toEqual(['spring_promo']);
    expect(await slugs({ status: ['active', 'rejected'] })).toEqual([
      'login_code',
      'order_shipped',
      'spring_promo',
    ]);
    expect(await slugs({ category: 'authentication' })).toEqual(['login_code']);
    expect(await slugs({ q: 'PROMO' })).toEqual(['spring_promo']);
    expect(await slugs({ waba: WABA })).toHaveLength(3);
    expect(await slugs({ waba: OTHER_WABA })).toEqual([]);
    expect(await slugs({ scope: 'system' })).toEqual([]);
    expect(await slugs({ scope: 'workspace' })).toHaveLength(3);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await bird.whatsapp.templates.list({ limit: 1, starting_after: cursor });
      walked.push(...page.data.map((t) => t.slug));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(walked.sort()).toEqual(['login_code', 'order_shipped', 'spring_promo']);
    const bad = await call(platform.base, 'GET', '/v1/whatsapp/templates?status=approved', {
      token: acme.api_key.secret,
    });
    expect(bad.status).toBe(422);
  });

  it('a content change at Meta makes a new live version; the old one keeps its content', async () => {
    const before = await bird.whatsapp.templates.get('order_shipped');
    const oldHash = (
      await bird.whatsapp.templates.versions.languages.get(
        'order_shipped',
        before.live_version_id!,
        'en-US',
      )
    ).content_hash;
    graph.updateTemplate(WABA, ids.enUS, {
      components: body('Hi {{1}}, order {{2}} is on its way.'),
    });
    await syncAndWait(channelGroupId);
    const after = await bird.whatsapp.templates.get('order_shipped');
    expect(after.live_version_id).not.toBe(before.live_version_id);
    const versions = await bird.whatsapp.templates.versions.list('order_shipped');
    expect(versions.data.map((v) => v.version_number)).toEqual([2, 1]);
    const en = await bird.whatsapp.templates.versions.languages.get(
      'order_shipped',
      after.live_version_id!,
      'en-US',
    );
    expect(en.revision).toBe(2);
    expect(en.content_hash).not.toBe(oldHash);
    const pt = await bird.whatsapp.templates.versions.languages.get(
      'order_shipped',
      after.live_version_id!,
      'pt-BR',
    );
    expect(pt.revision).toBe(1);
    const old = await bird.whatsapp.templates.versions.get(
      'order_shipped',
      before.live_version_id!,
    );
    expect(JSON.stringify(old.languages['en-US']?.components)).toContain('has shipped');
  });

  it('a status-only change updates the language in place: no version, revision kept, category moves', async () => {
    const before = await bird.whatsapp.templates.get('order_shipped');
    graph.updateTemplate(WABA, ids.ptBR, {
      status: 'PAUSED',
      category: 'MARKETING',
      quality_score: { score: 'RED' },
    });
    graph.updateTemplate(WABA, ids.de, { status: 'APPROVED' });
    await syncAndWait(channelGroupId);
    const after = await bird.whatsapp.templates.get('order_shipped');
    expect(after.live_version_id).toBe(before.live_version_id);
    expect(after.pending_version_id).toBeNull();
    expect(after.available_languages).toEqual(['de', 'en-US']);
    expect(after.languages['pt-BR']?.status).toBe('paused');
    expect(after.category).toBe('utility');
    const pt = await bird.whatsapp.templates.versions.languages.get(
      'order_shipped',
      after.live_version_id!,
      'pt-BR',
    );
    expect(pt).toMatchObject({
      status: 'paused',
      category: 'marketing',
      previous_category: 'utility',
      revision: 1,
    });
    expect(pt.quality?.current_score).toBe('red');
    expect((await bird.whatsapp.templates.versions.list('order_shipped')).data).toHaveLength(2);
  });

  it("applies Meta's template status webhooks to the language at once, without a sync", async () => {
    const post = (event: string, reason?: string) =>
      graph.postWebhook(
        `${platform.base}/webhooks/whatsapp`,
        graph.templateStatusPayload({
          wabaId: WABA,
          templateId: ids.enUS,
          name: 'order_shipped',
          language: 'en_US',
          event,
          reason,
        }),
        { appSecret: APP_SECRET },
      );
    expect((await post('REJECTED', 'INVALID_FORMAT')).status).toBe(200);
    const rejected = await eventually(
      () => bird.whatsapp.templates.get('order_shipped'),
      (t) => t.languages['en-US']?.status === 'rejected',
    );
    expect(rejected.languages['en-US']).toMatchObject({
      status: 'rejected',
      rejection: { category: 'invalid_format', reason: null },
    });
    expect(rejected.available_languages).toEqual(['de']);
    expect((await post('REINSTATED')).status).toBe(200);
    const reinstated = await eventually(
      () => bird.whatsapp.templates.get('order_shipped'),
      (t) => t.languages['en-US']?.status === 'approved',
    );
    expect(reinstated.status).toBe('active');
    expect(reinstated.live_version_id).toBe(rejected.live_version_id);
  });

  it('templates Meta no longer lists are marked deleted, never dropped', async () => {
    graph.removeTemplate(WABA, ids.promo);
    await syncAndWait(channelGroupId);
    const promo = await bird.whatsapp.templates.get('spring_promo');
    expect(promo.status).toBe('inactive');
    expect(promo.languages['en-US']?.status).toBe('deleted');
    expect((await bird.whatsapp.templates.versions.list('spring_promo')).data).toHaveLength(1);
  });

  it('pages versions newest first with cursors', async () => {
    const first = await bird.whatsapp.templates.versions.list('order_shipped', { limit: 1 });
    expect(first.data.map((v) => v.version_number)).toEqual([2]);
    const second = await bird.whatsapp.templates.versions.list('order_shipped', {
      limit: 1,
      starting_after: first.next_cursor!,
    });
    expect(second.data.map((v) => v.version_number)).toEqual([1]);
    expect(second.next_cursor).toBeNull();
  });

  it('refuses to sync a channel group that holds no WhatsApp Business Account (422)', async () => {
    const groupId = randomUUID();
    await platform.db.query(
      `INSERT INTO sms_whatsapp.channel_groups (id, workspace_id, platform_id, platform_group_id)
       VALUES ($1, $2, 'sms', 'not-whatsapp')`,
      [groupId, acme.workspace.id],
    );
    const answer = await syncTemplates(acme, groupId);
    expect(answer.status).toBe(422);
    expect((answer.body as unknown as { error: { code: string } }).error.code).toBe('E01054');
  });

  it('answers the SDK’s 404s for an unknown template, version and language', async () => {
    const template = await bird.whatsapp.templates.get('order_shipped');
    const codeOf = async (path: string) =>
      (
        await call<{ error: { code: string } }>(platform.base, 'GET', path, {
          token: acme.api_key.secret,
        })
      ).body.error?.code;
    expect(await codeOf('/v1/whatsapp/templates/no_such_template')).toBe('E04075');
    expect(await codeOf('/v1/whatsapp/templates/NOT%20A%20SLUG')).toBe('E04075');
    expect(
      await codeOf(`/v1/whatsapp/templates/order_shipped/versions/wav_00000000000000000000000000`),
    ).toBe('E04076');
    expect(
      await codeOf(
        `/v1/whatsapp/templates/order_shipped/versions/${template.live_version_id}/languages/ja`,
      ),
    ).toBe('E04077');
  });

  it('another workspace sees none of it, and cannot sync a channel group it does not hold', async () => {
    // Its own account's templates (synced when it connected), none of Acme's.
    const theirTemplates = (await otherBird.whatsapp.templates.list()).data;
    expect(theirTemplates.map((t) => t.name)).not.toContain('order_shipped');
    expect(theirTemplates.every((t) => t.waba === OTHER_WABA)).toBe(true);
    const template = await bird.whatsapp.templates.get('order_shipped');
    const foreign = await call<{ error: { code: string } }>(
      platform.base,
      'GET',
      `/v1/whatsapp/templates/${template.id}`,
      {
        token: other.api_key.secret,
      },
    );
    expect(foreign.status).toBe(404);
    const theirs = await syncTemplates(other, channelGroupId);
    expect(theirs.status).toBe(404);
    expect((theirs.body as unknown as { error: { code: string } }).error.code).toBe('E04078');
    const pathOfAcme = await syncTemplates(other, otherChannelGroupId, acme.workspace.id);
    expect(pathOfAcme.status).toBe(403);
    const unknown = await syncTemplates(acme, randomUUID());
    expect(unknown.status).toBe(404);
    const apiKey = await call(
      platform.base,
      'POST',
      `/workspaces/${acme.workspace.id}/channel-groups/${channelGroupId}/sync-templates`,
      {
        token: acme.api_key.secret,
        body: {},
      },
    );
    expect(apiKey.status).toBe(401);
    // Its own sync brings its own account's templates only.
    expect((await syncTemplates(other, otherChannelGroupId)).status).toBe(202);
    const mine = await eventually(
      () => otherBird.whatsapp.templates.list(),
      (page) => page.data.length > 0,
    );
    expect(mine.data.map((t) => t.slug)).toEqual(['other_only']);
  });
});

/** The periodic sync, on a platform whose interval is the shortest allowed (10 s). */
describe('WhatsApp templates synced periodically', () => {
  let platform: TestPlatform;
  let graph: GraphStandIn;

  beforeAll(async () => {
    graph = await startGraphStandIn();
    platform = await startTestPlatform({
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_TEMPLATE_SYNC_INTERVAL_SECONDS: '10',
    });
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await graph?.stop();
  });

  it('imports a connected account’s templates without a request, and picks up changes at Meta', async () => {
    const acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    const bird = new BirdClient({
      apiKey: acme.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    const stored = graph.addTemplate(WABA, template({ name: 'welcome', language: 'en' }));
    await connectAccount(platform, graph, acme, WABA, '106540352242924');
    const imported = await eventually(
      () => bird.whatsapp.templates.list(),
      (page) => page.data.length === 1,
    );
    expect(imported.data[0]).toMatchObject({ slug: 'welcome', status: 'active' });
    graph.updateTemplate(WABA, stored.id, {
      components: body('Welcome aboard, {{1}}! Order {{2}}.'),
    });
    const versions = await eventually(
      () => bird.whatsapp.templates.versions.list('welcome'),
      (page) => page.data.length === 2,
      30_000,
    );
    expect(versions.data.map((version) => version.version_number)).toEqual([2, 1]);
  }, 60_000);
});
