import { resolveDeclaredRoutes } from '@switchboard/app-gateway';
import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse } from '@switchboard/testing';
import type { TestPlatform } from './test-platform';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';

/** Every method a client can send; HEAD and OPTIONS included (Fastify adds HEAD to every GET). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Routes that answer without credentials, and what they answer then. */
const PUBLIC_ANSWERS = new Set(['none', 'session_login']);

/**
 * The route Fastify picks for a method and a literal path: the path itself, or a parameter route
 * that takes its segment (`GET /v1/contacts/batch` is `GET /v1/contacts/:contact_id`).
 */
function servingRoute(served: Set<string>, method: string, url: string): string | undefined {
  if (served.has(`${method} ${url}`)) return url;
  const segments = url.split('/');
  return [...served]
    .filter((key) => key.startsWith(`${method} `))
    .map((key) => key.slice(method.length + 1))
    .find((pattern) => {
      const parts = pattern.split('/');
      return (
        parts.length === segments.length &&
        parts.every((part, i) => part === segments[i] || part.startsWith(':'))
      );
    });
}

/** A well-formed identifier for every path parameter: the walk is about credentials, not ids. */
const concretePath = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, `x_${'0'.repeat(26)}`);

function expectEnvelope(response: ApiResponse, method: string, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  if (method === 'HEAD') return; // the status and headers of the GET answer, without its body
  const error = (response.body as { error: { code: string; request_id: string } }).error;
  expect(error.request_id).toBe(response.headers.get('x-request-id'));
  if (code) expect(error.code).toBe(code);
  else expect(error.code).toMatch(/^E\d{5}$/);
}

describe('the route table Fastify built, walked without credentials', () => {
  let platform: TestPlatform;
  let served: Set<string>;

  beforeAll(async () => {
    platform = await startTestPlatform();
    served = new Set(platform.routes.map((route) => `${route.method} ${route.url}`));
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('serves HEAD exactly where GET is served, and nothing answers OPTIONS', () => {
    const gets = platform.routes.filter((route) => route.method === 'GET').map((r) => r.url);
    const heads = platform.routes.filter((route) => route.method === 'HEAD').map((r) => r.url);
    expect(heads.sort()).toEqual(gets.sort());
    expect(platform.routes.some((route) => route.method === 'OPTIONS')).toBe(false);
  });

  it('has a declared policy for every route it serves, and serves every declared one', () => {
    const declared = new Set(resolveDeclaredRoutes().map((r) => `${r.method} ${r.path}`));
    for (const route of platform.routes) {
      expect(declared).toContain(`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`);
    }
    for (const key of declared) expect(served).toContain(key);
  });

  it('answers every method on every path: 401 or the public answer where served, 405 with Allow elsewhere', async () => {
    const policies = new Map(resolveDeclaredRoutes().map((r) => [`${r.method} ${r.path}`, r]));
    const urls = [...new Set(platform.routes.map((route) => route.url))];
    let checked = 0;
    for (const url of urls) {
      for (const method of METHODS) {
        const response = await call(platform.base, method, concretePath(url));
        const serving = servingRoute(served, method, url);
        const route = policies.get(`${method === 'HEAD' ? 'GET' : method} ${serving ?? url}`);
        const context = `${method} ${url} -> ${response.status} ${JSON.stringify(response.body)}`;
        if (!serving) {
          expect({ context, status: response.status }).toEqual({ context, status: 405 });
          expectEnvelope(response, method, 405, 'E01007');
          expect(response.headers.get('allow')).toMatch(/^[A-Z, ]+$/);
        } else if (route && PUBLIC_ANSWERS.has(route.policy.auth)) {
          // A public route answers on its own terms, but never with a server error.
          expect({ context, serverError: response.status >= 500 }).toEqual({
            context,
            serverError: false,
          });
          if (response.status >= 400) expectEnvelope(response, method, response.status);
        } else {
          expect({ context, status: response.status }).toEqual({ context, status: 401 });
          expectEnvelope(response, method, 401);
        }
        checked++;
      }
    }
    expect(checked).toBe(urls.length * METHODS.length);
  });
});

/** The parameters of a Fastify path (`:name`). */
const parametersOf = (url: string) =>
  [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => name);

/** The path with each parameter replaced by its fixture (undefined when one has none). */
function fill(url: string, ids: Record<string, string>): string | undefined {
  if (parametersOf(url).some((name) => !(name in ids))) return undefined;
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(ids[name]));
}

/** What a read answered, without what differs between two identical answers (ids, cursors). */
function snapshot(response: ApiResponse): unknown {
  const body = response.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return { status: response.status, body };
  const stable = Object.entries(body.error ? (body.error as Record<string, unknown>) : body).filter(
    ([key]) => key !== 'request_id' && !key.endsWith('_cursor'),
  );
  return { status: response.status, [body.error ? 'error' : 'body']: Object.fromEntries(stable) };
}

/**
 * Every API-key route with a path parameter, called by workspace A with the ids of workspace B's
 * resources: the route list comes from the table Fastify built, so a new route (or a new path
 * parameter, or a new body DTO) without a fixture here fails the walk instead of being skipped.
 */
describe("the route table walked with another workspace's ids", () => {
  let platform: TestPlatform;
  /** An admin API key of workspace A, the caller. */
  let callerKey: string;
  /** Workspace B's own admin key: it creates the fixtures and reads them back. */
  let ownerKey: string;
  /** B's realtime key and secret, sent on every call (the data plane needs them). */
  let realtimeHeaders: Record<string, string>;
  /** Path parameter name -> the id (or name) of one of workspace B's resources. */
  let ids: Record<string, string>;

  const asOwner = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const response = await call<T>(platform.base, method, path, {
      token: ownerKey,
      body,
      headers: realtimeHeaders,
    });
    if (method !== 'GET' && response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response;
  };

  /**
   * A valid body per body DTO, so shape validation passes and the request reaches the owning
   * service. Each would change B's resource if the service let it through.
   */
  const bodies = (): Record<string, unknown> => ({
    UpdateRealtimeAppDto: { name: 'taken over', connection_counting: true },
    PublishEventDto: { event: 'takeover', channels: ['news'], data: { x: 1 } },
    PublishBatchDto: { events: [{ event: 'takeover', channel: 'news' }] },
    MemberEventDto: { event: 'takeover', data: { x: 1 } },
    UpdateDomainDto: { return_path: { name: 'bounce' } },
    UpdateWebhookDto: { description: 'taken over', status: 'paused' },
    TestWebhookDto: { event_type: 'email_suppression.created' },
    ReplayWebhookDto: {},
    UpdateAudienceDto: { name: 'taken over' },
    UpdateEmailBroadcastDto: { tags: [{ name: 'taken', value: 'over' }] },
    SendEmailBroadcastDto: {},
    AudienceContactsDto: { contact_ids: [ids.contact_id] },
    UpdateContactPropertyDto: { fallback_value: 'enterprise' },
    UpdateContactDto: { first_name: 'Mallory', data: { plan: 'stolen' } },
    UpdateSmsKeywordRuleDto: { reply: 'taken over' },
    MarkWhatsAppReadDto: { typing_indicator: true },
    SetWhatsAppReactionDto: { emoji: '👍' },
    UpdateEmailTemplateDto: { revision: 2, name: 'taken over' },
    DuplicateEmailTemplateDto: {},
    PreviewEmailTemplateDto: {},
    SubmitEmailTemplateDto: {},
    RollbackEmailTemplateDto: { revision: 2 },
    PutEmailTemplateLanguageDto: { subject: 'taken over' },
    PatchEmailTemplateLanguageDto: { subject: 'taken over' },
  });

  beforeAll(async () => {
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      // A carrier nobody answers for: SMS sends are accepted and stay so.
      SMPP_URL: 'smpp://owner:secret@127.0.0.1:9',
    });
    const a = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Caller' });
    const b = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Owner' });
    const adminKey = async (workspaceId: string) => {
      const created = await call<{ secret: string }>(
        platform.base,
        'POST',
        `/admin/v1/workspaces/${workspaceId}/api-keys`,
        { token: TEST_ADMIN_TOKEN, body: { role: 'admin' } },
      );
      expect(created.status).toBe(201);
      return created.body.secret;
    };
    callerKey = await adminKey(a.workspace.id);
    ownerKey = await adminKey(b.workspace.id);
    realtimeHeaders = {};
    // Workspace A has resources of the same kinds and names, so a lookup that forgot the
    // workspace could find either.
    await call(platform.base, 'POST', '/v1/contact-properties', {
      token: callerKey,
      body: { key: 'plan', type: 'string' },
    });

    const realtime = await asOwner<{ app: { id: string }; key: { id: string; secret: string } }>(
      'POST',
      '/v1/realtime/apps',
      { name: 'Owner app', region: 'eu1' },
    );
    const second = await asOwner<{ id: string }>(
      'POST',
      `/v1/realtime/apps/${realtime.body.app.id}/keys`,
    );
    realtimeHeaders = {
      'x-realtime-key': realtime.body.key.id,
      'x-realtime-secret': realtime.body.key.secret,
    };
    const domain = await asOwner<{ id: string }>('POST', '/v1/email/domains', {
      domain: 'mail.owner.example',
    });
    // An email template of B's, published; A has one of the same slug.
    const templateBody = {
      slug: 'route-table',
      category: 'transactional',
      source: 'html',
      languages: { en: { subject: 'Hi', html: '<p>Hi</p>' } },
    };
    await call(platform.base, 'POST', '/v1/email/templates', {
      token: callerKey,
      body: templateBody,
    });
    const emailTemplate = await asOwner<{ id: string; draft_version_id: string }>(
      'POST',
      '/v1/email/templates',
      templateBody,
    );
    await asOwner(
      'POST',
      `/v1/email/templates/${emailTemplate.body.id}/versions/${emailTemplate.body.draft_version_id}/submit`,
      {},
    );
    const suppression = await asOwner<{ id: string }>('POST', '/v1/email/suppressions', {
      email: 'gone@owner.example',
    });
    const message = await asOwner<{ id: string }>('POST', '/v1/email/messages', {
      from: 'hello@onboarding.localhost',
      to: ['ada@owner.example'],
      subject: 'Later',
      text: 'Scheduled, so it stays put.',
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const webhook = await asOwner<{ id: string }>('POST', '/v1/webhooks', {
      url: 'http://127.0.0.1:9/owner',
      events: ['email_suppression.created'],
    });
    const property = await asOwner<{ id: string }>('POST', '/v1/contact-properties', {
      key: 'plan',
      type: 'string',
      fallback_value: 'free',
    });
    const contact = await asOwner<{ id: string }>('POST', '/v1/contacts', {
      email: 'ada@owner.example',
      first_name: 'Ada',
      data: { plan: 'pro' },
    });
    // A number B holds (ordered from stock) and a call the SIP platform reported for B.
    await call(platform.base, 'POST', '/admin/v1/numbers', {
      token: TEST_ADMIN_TOKEN,
      body: { number: '+447700900901', number_type: 'mobile', capabilities: ['sms'] },
    });
    const order = await asOwner<{ id: string; number_id: string }>('POST', '/v1/numbers/orders', {
      number: '+447700900901',
    });
    const voiceCall = await call<{ id: string }>(
      platform.base,
      'POST',
      `/admin/v1/workspaces/${b.workspace.id}/voice/calls`,
      {
        token: TEST_ADMIN_TOKEN,
        body: {
          direction: 'inbound',
          from: '+14155551234',
          to: '+447700900901',
          status: 'no_answer',
          started_at: '2026-11-20T10:00:00Z',
          ended_at: '2026-11-20T10:00:30Z',
        },
      },
    );
    const audience = await asOwner<{ id: string }>('POST', '/v1/audiences', { name: 'Owners' });
    await asOwner('POST', `/v1/audiences/${audience.body.id}/contacts`, {
      contact_ids: [contact.body.id],
    });
    const broadcast = await asOwner<{ id: string }>('POST', '/v1/email/broadcasts', {
      audience_id: audience.body.id,
      template: { id: emailTemplate.body.id },
    });
    // B's sender ID (the operator's senders route belongs to another area: a row).
    await platform.db.query(
      `INSERT INTO sms_whatsapp.sms_senders (id, workspace_id, sender) VALUES ('sid_owner', $1, 'Owner')`,
      [b.workspace.id],
    );
    const sms = await asOwner<{ id: string }>('POST', '/v1/sms/messages', {
      to: '+31612345678',
      from: 'Owner',
      text: 'Only for B',
      category: 'service',
    });
    // SMS: a number B holds (stocked with SQL), a keyword rule and a suppression of B.
    await platform.db.query(
      `INSERT INTO sms_whatsapp.numbers (number, country_code, number_type, capabilities)
       VALUES ('+31201230000', 'NL', 'mobile', '{sms}')`,
    );
    await platform.db.query(
      `INSERT INTO sms_whatsapp.number_allocations (id, workspace_id, number, country_code)
       VALUES ('nda_routetable', $1, '+31201230000', 'NL')`,
      [b.workspace.id],
    );
    // WhatsApp: a template of B's business account as a sync leaves it (seeded with SQL).
    await platform.db.query(
      `WITH account AS (
         INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name, templates_synced_at)
         VALUES ('waa_routetable0000000000000000', $1, '190000000000001', 'B', now()) RETURNING id),
       template AS (
         INSERT INTO sms_whatsapp.whatsapp_templates
           (id, workspace_id, business_account_id, slug, name, category, status, default_language, live_version_id)
         SELECT 'wat_routetable0000000000000000', $1, id, 'b_only', 'b_only', 'utility', 'active', 'en',
           'wav_routetable0000000000000000' FROM account RETURNING id),
       version AS (
         INSERT INTO sms_whatsapp.whatsapp_template_versions (id, workspace_id, template_id, number, status)
         SELECT 'wav_routetable0000000000000000', $1, id, 1, 'live' FROM template RETURNING id)
       INSERT INTO sms_whatsapp.whatsapp_template_languages
         (version_id, language, workspace_id, meta_template_id, components, status, content_hash, submitted_at)
       SELECT id, 'en', $1, '190000000000002', '[{"type":"BODY","text":"Only for B"}]', 'approved',
         'sha256:0', now() FROM version`,
      [b.workspace.id],
    );
    const keywordRule = await asOwner<{ id: string }>('POST', '/v1/sms/keyword-rules', {
      operation: 'help',
      country: 'NL',
      reply: 'Owner support.',
    });
    const smsSuppression = await asOwner<{ id: string }>('POST', '/v1/sms/suppressions', {
      destination: '+31612345678',
      originator: '+31201230000',
    });
    const preference = await asOwner<{ preference: { id: string } }>('POST', '/v1/preferences', {
      channel: 'sms',
      handle: '+31612345678',
      status: 'revoked',
    });
    // A WhatsApp number and business account of B (connecting needs Meta: rows).
    await platform.db.query(
      `WITH a AS (
         INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
         VALUES ('waa_${'r'.repeat(26)}', $1, '102290129340398', 'Owner') RETURNING id)
       INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status)
       SELECT 'wan_${'r'.repeat(26)}', $1, a.id, '106540352242922', '+31612340001',
         gen_random_uuid(), 'Owner', 'connected' FROM a`,
      [b.workspace.id],
    );
    // An inbound WhatsApp image of B's, its bytes fetched from Meta (rows: it came by webhook).
    await platform.db.query(
      `WITH m AS (
         INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
           business_phone, contact_phone, content_kind, content, provider_message_id, created_at,
           status_at)
         VALUES ('wam_${'r'.repeat(26)}', $1, 'inbound', 'received', 'wan_${'r'.repeat(26)}',
           '+31612340001', '+31612345678', 'image', '{"id":"waf_${'r'.repeat(26)}"}',
           'wamid.route-table', now(), now()) RETURNING id)
       INSERT INTO sms_whatsapp.whatsapp_media (id, workspace_id, message_id, meta_media_id,
         mime_type, bytes, size_bytes, status, fetched_at, expires_at)
       SELECT 'waf_${'r'.repeat(26)}', $1, m.id, 'meta-route-table', 'image/png', '\\x0102'::bytea,
         2, 'stored', now(), now() + interval '30 days' FROM m`,
      [b.workspace.id],
    );
    ids = {
      whatsapp_number_id: `wan_${'r'.repeat(26)}`,
      whatsapp_message_id: `wam_${'r'.repeat(26)}`,
      media_id: `waf_${'r'.repeat(26)}`,
      business_account_ref: '102290129340398',
      sms_message_id: sms.body.id,
      keyword_rule_id: keywordRule.body.id,
      sms_suppression_id: smsSuppression.body.id,
      preference_id: preference.body.preference.id,
      template_ref: 'bird_otp_verification',
      realtime_app_id: realtime.body.app.id,
      realtime_app_key_id: second.body.id,
      domain_id: domain.body.id,
      suppression_id: suppression.body.id,
      message_id: message.body.id,
      broadcast_id: broadcast.body.id,
      webhook_id: webhook.body.id,
      contact_id: contact.body.id,
      audience_id: audience.body.id,
      property_id: property.body.id,
      channel_name: 'presence-lobby',
      member_id: 'member-1',
      number_id: order.body.number_id,
      order_id: order.body.id,
      number: '+447700900901',
      call_id: voiceCall.body.id,
      whatsapp_template_ref: 'wat_routetable0000000000000000',
      template_version_id: 'wav_routetable0000000000000000',
      template_language: 'en',
      email_template_ref: emailTemplate.body.id,
      email_template_version_id: emailTemplate.body.draft_version_id,
      email_template_language: 'en',
    };
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it("answers 404 on every API-key route with path parameters, and B's resources stay as they were", async () => {
    const policies = new Map(resolveDeclaredRoutes().map((r) => [`${r.method} ${r.path}`, r]));
    const apiRoute = ({ method, url }: { method: string; url: string }) =>
      policies.get(`${method === 'HEAD' ? 'GET' : method} ${url}`)?.policy.auth === 'api';
    // B's view of its own resources: every API-key read, with B's ids in its parameters.
    const reads = platform.routes.filter((route) => route.method === 'GET' && apiRoute(route));
    const readAll = async () => {
      const seen: Record<string, unknown> = {};
      for (const { url } of reads) {
        const path = fill(url, ids);
        if (path) seen[url] = snapshot(await asOwner('GET', path));
      }
      return seen;
    };
    const before = await readAll();
    // Every read answers B (the stored content of a scheduled message is not there yet: 425;
    // the search of numbers on sale needs a country: 422; the number B holds is not on sale, to B
    // either: 404).
    const failedReads = Object.entries(before).filter(
      ([, read]) => (read as { status: number }).status >= 300,
    );
    expect(failedReads).toEqual([
      ['/v1/email/messages/:message_id/content', expect.objectContaining({ status: 425 })],
      // The profile is read live from Meta, which this platform is not configured for.
      [
        '/v1/whatsapp/numbers/:whatsapp_number_id/profile',
        expect.objectContaining({ status: 503 }),
      ],
      ['/v1/numbers/available', expect.objectContaining({ status: 422 })],
      ['/v1/numbers/available/:number', expect.objectContaining({ status: 404 })],
    ]);

    // Every method Fastify serves (HEAD included) on every API-key path with a parameter; the
    // SMS template catalog is the platform's, the same for every workspace (nothing to take).
    const walked = platform.routes.filter(
      (route) =>
        parametersOf(route.url).length > 0 &&
        apiRoute(route) &&
        !parametersOf(route.url).includes('template_ref'),
    );
    expect(walked.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const route of walked) {
      const { method } = route;
      const context = `${method} ${route.url}`;
      const missing = parametersOf(route.url).filter((name) => !(name in ids));
      expect({ context, missing }).toEqual({ context, missing: [] });
      const policy = policies.get(`${method === 'HEAD' ? 'GET' : method} ${route.url}`)!.policy;
      const dto = policy.body?.name;
      const body = dto ? bodies()[dto] : undefined;
      expect({ context, dto, hasBody: body !== undefined }).toEqual({
        context,
        dto,
        hasBody: dto !== undefined,
      });
      const response = await call(platform.base, method, fill(route.url, ids)!, {
        token: callerKey,
        body,
        headers: realtimeHeaders,
      });
      const type = (response.body as { error?: { type?: string } } | undefined)?.error?.type;
      if (response.status !== 404 || (method !== 'HEAD' && type !== 'not_found_error'))
        wrong.push(`${context} -> ${response.status} ${JSON.stringify(response.body)}`);
    }
    const after = await readAll();
    expect(wrong).toEqual([]);
    expect(after).toEqual(before);
  });
});
