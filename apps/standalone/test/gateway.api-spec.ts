import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import {
  BirdAuthError,
  BirdClient,
  BirdMisdirectedError,
  BirdPermissionError,
} from '@messagebird/sdk';
import { ErrorCatalog, ServiceNames } from '@switchboard/contracts';
import { startMetricsServer } from '@switchboard/platform';
import { call, createWorkspace } from '@switchboard/testing';
import type { CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const ADMIN_TOKEN = TEST_ADMIN_TOKEN;
// The built CLI (`npm test` builds dist/ before jest runs), as `npm run admin` runs it.
const ADMIN_CLI = join(__dirname, '../../../dist/apps/standalone/src/admin-cli.js');

describe('gateway API (embedded default, real PostgreSQL)', () => {
  let platform: TestPlatform;
  let base: string;
  let acme: CreatedWorkspace;

  beforeAll(async () => {
    platform = await startTestPlatform();
    base = platform.base;
    acme = await createWorkspace(base, ADMIN_TOKEN, {
      name: 'Acme',
      organization_name: 'Acme Inc',
    });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const expectEnvelope = (
    response: { status: number; headers: Headers; body: unknown },
    status: number,
    code: keyof typeof ErrorCatalog,
  ) => {
    expect(response.status).toBe(status);
    const body = response.body as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({
      code,
      type: ErrorCatalog[code].type,
      name: ErrorCatalog[code].name,
      request_id: response.headers.get('x-request-id'),
    });
    expect(body.error.doc_url).toBe(`${base}/v1/docs/pages?slug=errors/${code}`);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
  };

  describe('health and metrics', () => {
    it('answers /healthz and /readyz 200 once every service is reachable', async () => {
      expect((await call(base, 'GET', '/healthz')).status).toBe(200);
      const ready = await call<{ status: string; checks: Record<string, string> }>(
        base,
        'GET',
        '/readyz',
      );
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('ok');
      // Every service of the product is checked, not only some, and the background thread.
      expect(ready.body.checks).toEqual(
        Object.fromEntries(['database', ...ServiceNames, 'background'].map((name) => [name, 'ok'])),
      );
    });

    it('does not serve /metrics on the public API port: without credentials it is the 404 envelope of an unknown route', async () => {
      expectEnvelope(await call(base, 'GET', '/metrics'), 404, 'E01006');
    });

    it('exposes request counts and latency histograms by route and status in Prometheus text on the metrics port', async () => {
      // What `npm start` (apps/standalone/src/main.ts) runs beside the platform, on METRICS_PORT=0.
      const metricsServer = await startMetricsServer({ port: 0, host: '127.0.0.1' });
      try {
        await call(base, 'GET', '/v1/workspace', { token: acme.api_key.secret });
        const metrics = await fetch(metricsServer.url);
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('content-type')).toContain('text/plain');
        const body = await metrics.text();
        expect(body).toMatch(
          /switchboard_http_requests_total\{method="GET",route="\/v1\/workspace",status="200"\} \d+/,
        );
        expect(body).toContain('switchboard_http_request_duration_seconds_bucket');
        expect(body).toContain('switchboard_rpc_requests_total');
      } finally {
        await metricsServer.close();
      }
    });
  });

  describe('operator API', () => {
    it('creates a workspace with an admin API key of its region and an access key, secrets shown once', () => {
      expect(acme.organization).toEqual({ id: expect.stringMatching(/^org_/), name: 'Acme Inc' });
      expect(acme.workspace).toMatchObject({
        id: expect.stringMatching(/^ws_/),
        name: 'Acme',
        organization_id: acme.organization.id,
      });
      expect(acme.api_key).toEqual({
        id: expect.stringMatching(/^key_/),
        role: 'admin',
        secret: expect.stringMatching(/^bk_us1_[0-9a-z]+$/),
      });
      expect(acme.access_key).toEqual({
        id: expect.stringMatching(/^ak_/),
        secret: expect.stringMatching(/^ak_/),
      });
    });

    it('refuses the operator API without the operator token (401) and with an API key (401)', async () => {
      const missing = await call(base, 'POST', '/admin/v1/workspaces', { body: { name: 'x' } });
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({ error: { type: 'auth_error', code: 'E02001' } });
      const wrong = await call(base, 'POST', '/admin/v1/workspaces', {
        token: acme.api_key.secret,
        body: { name: 'x' },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: { code: 'E02002' } });
    });

    it('lists workspaces for the operator with the shared cursor pagination', async () => {
      await createWorkspace(base, ADMIN_TOKEN, { name: 'Listed' });
      const first = await call<{
        data: Array<{ id: string; name: string }>;
        next_cursor: string | null;
        prev_cursor: string | null;
        refresh_cursor: string | null;
        total: number;
      }>(base, 'GET', '/admin/v1/workspaces?limit=1&include_total=true', { token: ADMIN_TOKEN });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual([
        expect.objectContaining({ name: 'Listed', id: expect.stringMatching(/^ws_/) }),
      ]);
      expect(first.body.total).toBeGreaterThanOrEqual(2);
      expect(first.body.prev_cursor).toBeNull();
      expect(first.body.refresh_cursor).toEqual(expect.any(String));
      const second = await call<{ data: Array<{ id: string }> }>(
        base,
        'GET',
        `/admin/v1/workspaces?limit=1&include_total=true&starting_after=${first.body.next_cursor}`,
        { token: ADMIN_TOKEN },
      );
      expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
      expect(
        (
          await call(base, 'GET', '/admin/v1/workspaces?starting_after=nonsense', {
            token: ADMIN_TOKEN,
          })
        ).body,
      ).toMatchObject({ error: { code: 'E01012' } });
    });

    it('creates one workspace per Idempotency-Key, even when the gateway died before recording the outcome', async () => {
      const headers = { 'idempotency-key': 'operator-create-1' };
      const first = await call<CreatedWorkspace>(base, 'POST', '/admin/v1/workspaces', {
        token: ADMIN_TOKEN,
        body: { name: 'Once only' },
        headers,
      });
      const replay = await call<CreatedWorkspace>(base, 'POST', '/admin/v1/workspaces', {
        token: ADMIN_TOKEN,
        body: { name: 'Once only' },
        headers,
      });
      expect(replay.headers.get('idempotency-replay')).toBe('true');
      expect(replay.body).toEqual(first.body);
      await platform.db.query(
        "UPDATE gateway.idempotency_keys SET state = 'in_progress', status = NULL, outcome_sealed = NULL, locked_until = now() - interval '1 second' WHERE key = $1",
        ['operator-create-1'],
      );
      const retry = await call<CreatedWorkspace>(base, 'POST', '/admin/v1/workspaces', {
        token: ADMIN_TOKEN,
        body: { name: 'Once only' },
        headers,
      });
      expect(retry.status).toBe(201);
      expect(retry.body.workspace.id).toBe(first.body.workspace.id);
      expect(
        (
          await platform.db.query(
            "SELECT count(*)::int AS n FROM gateway.workspaces WHERE name = 'Once only'",
          )
        ).rows[0].n,
      ).toBe(1);
    });

    it('creates read keys, access keys and users, and 404s an unknown workspace', async () => {
      const key = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/api-keys`, {
        token: ADMIN_TOKEN,
        body: { role: 'read' },
      });
      expect(key.status).toBe(201);
      expect(key.body).toEqual({
        id: expect.stringMatching(/^key_/),
        role: 'read',
        secret: expect.stringMatching(/^bk_us1_/),
      });
      const access = await call(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/access-keys`,
        { token: ADMIN_TOKEN },
      );
      expect(access.status).toBe(201);
      expect(access.body).toEqual({
        id: expect.stringMatching(/^ak_/),
        secret: expect.stringMatching(/^ak_/),
      });
      const user = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/users`, {
        token: ADMIN_TOKEN,
        body: { email: 'Linus@Example.com', password: 'a long enough password', role: 'read' },
      });
      expect(user.status).toBe(201);
      expect(user.body).toMatchObject({
        email: 'linus@example.com',
        role: 'read',
        workspace_id: acme.workspace.id,
      });
      expect(JSON.stringify(user.body)).not.toContain('a long enough password');
      const unknown = await call(base, 'POST', '/admin/v1/workspaces/ws_unknown/api-keys', {
        token: ADMIN_TOKEN,
        body: { role: 'read' },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: { type: 'not_found_error', code: 'E04001' } });
    });
    it("lists a workspace's API keys, access keys and users with the shared cursor pagination, never a secret or a hash", async () => {
      const beta = await createWorkspace(base, ADMIN_TOKEN, { name: 'Beta' });
      const admin = (path: string) =>
        call<{ data: Array<Record<string, unknown>>; next_cursor: string | null; total?: number }>(
          base,
          'GET',
          `/admin/v1/workspaces/${beta.workspace.id}${path}`,
          { token: ADMIN_TOKEN },
        );
      const readKey = await call<{ id: string; secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${beta.workspace.id}/api-keys`,
        { token: ADMIN_TOKEN, body: { role: 'read' } },
      );
      const password = 'a password to keep';
      for (const email of ['zoe.beta@example.com', 'Amy.Beta@Example.com'])
        await call(base, 'POST', `/admin/v1/workspaces/${beta.workspace.id}/users`, {
          token: ADMIN_TOKEN,
          body: { email, password, role: 'write' },
        });
      const secrets = [beta.api_key.secret, readKey.body.secret, beta.access_key.secret, password];
      const noSecrets = (body: unknown) => {
        const text = JSON.stringify(body);
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text).not.toMatch(/hash|lookup|password/);
      };

      const keys = await admin('/api-keys?limit=1&include_total=true');
      expect(keys.status).toBe(200);
      expect(keys.body.total).toBe(2);
      expect(keys.body.data).toEqual([
        {
          id: readKey.body.id,
          workspace_id: beta.workspace.id,
          role: 'read',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          revoked_at: null,
        },
      ]);
      const older = await admin(`/api-keys?limit=1&starting_after=${keys.body.next_cursor}`);
      expect(older.body.data).toEqual([
        expect.objectContaining({ id: beta.api_key.id, role: 'admin' }),
      ]);
      expect(older.body.next_cursor).toBeNull();
      const access = await admin('/access-keys');
      expect(access.body.data).toEqual([
        {
          id: beta.access_key.id,
          workspace_id: beta.workspace.id,
          created_at: expect.any(String),
          revoked_at: null,
        },
      ]);
      const users = await admin('/users?sort=email');
      expect(users.status).toBe(200);
      expect(users.body.data).toEqual([
        {
          id: expect.stringMatching(/^usr_/),
          workspace_id: beta.workspace.id,
          email: 'amy.beta@example.com',
          role: 'write',
          created_at: expect.any(String),
        },
        expect.objectContaining({ email: 'zoe.beta@example.com' }),
      ]);
      for (const body of [keys.body, older.body, access.body, users.body]) noSecrets(body);

      // The admin CLI prints those pages as tables, with the command for the next page.
      // Not spawnSync: the platform answering it runs in this process.
      const cli = (...args: string[]) =>
        promisify(execFile)(process.execPath, [ADMIN_CLI, ...args], {
          encoding: 'utf8',
          env: { ...process.env, PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN, SWITCHBOARD_URL: base },
        });
      const keyTable = await cli('list-api-keys', '--workspace', beta.workspace.id, '--limit', '1');
      const [header, row, summary] = keyTable.stdout.trimEnd().split('\n');
      expect(header.split(/\s+/)).toEqual([
        'id',
        'workspace_id',
        'role',
        'created_at',
        'revoked_at',
      ]);
      expect(row.split(/\s+/)).toEqual([
        readKey.body.id,
        beta.workspace.id,
        'read',
        expect.any(String),
        '-',
      ]);
      const prefix = `1 API key shown. Next page: npm run admin -- list-api-keys --workspace ${beta.workspace.id} --limit 1 --starting-after=`;
      expect(summary.startsWith(prefix)).toBe(true);
      const nextTable = await cli(...summary.split('npm run admin -- ')[1].split(' '));
      expect(nextTable.stdout).toContain(beta.api_key.id);
      expect(nextTable.stdout.trimEnd().split('\n').at(-1)).toBe('1 API key shown. No more.');
      const userTable = await cli('list-users', '--workspace', beta.workspace.id);
      expect(userTable.stdout).toContain('amy.beta@example.com');
      expect(userTable.stdout.trimEnd().split('\n').at(-1)).toBe('2 users shown. No more.');
      for (const output of [keyTable.stdout, userTable.stdout]) noSecrets(output);

      expectEnvelope(await admin('/users?sort=password'), 422, 'E01001');
      for (const path of ['api-keys', 'access-keys', 'users']) {
        const unknown = await call(base, 'GET', `/admin/v1/workspaces/ws_unknown/${path}`, {
          token: ADMIN_TOKEN,
        });
        expectEnvelope(unknown, 404, 'E04001');
        expectEnvelope(
          await call(base, 'GET', `/admin/v1/workspaces/${beta.workspace.id}/${path}`, {
            token: beta.api_key.secret,
          }),
          401,
          'E02002',
        );
      }
    });
  });

  describe('GET /v1/workspace through the official SDK', () => {
    it('returns the SDK Workspace shape for the key in the SDK, with baseUrl pointed at the gateway', async () => {
      const bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: base });
      const { data, response } = await bird.workspace.get().withResponse();
      expect(data).toEqual({
        id: acme.workspace.id,
        organization_id: acme.organization.id,
        name: 'Acme',
        notification_emails: { operational: [] },
        logo_url: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(response.requestId).toMatch(/^req_[0-9a-z]{26}$/);
    });

    it('rejects an unknown key with BirdAuthError 401 E02002 and the envelope fields', async () => {
      const bird = new BirdClient({
        apiKey: 'bk_us1_notarealkey0000000000000000000000000000000000000',
        baseUrl: base,
        maxRetries: 0,
      });
      const error = await bird.workspace.get().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdAuthError);
      expect(error).toMatchObject({
        statusCode: 401,
        code: 'E02002',
        type: 'auth_error',
        requestId: expect.stringMatching(/^req_/),
      });
      expect((error as BirdAuthError).docUrl).toBe(`${base}/v1/docs/pages?slug=errors/E02002`);
    });

    it('answers a key of a region this deployment does not serve with 421 E01010 naming the region', async () => {
      const bird = new BirdClient({
        apiKey: 'bk_ap1_0000000000000000000000000000000000000000000000',
        baseUrl: base,
        maxRetries: 0,
      });
      const error = await bird.workspace.get().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdMisdirectedError);
      expect(error).toMatchObject({ statusCode: 421, code: 'E01010', type: 'misdirected_error' });
      expect((error as Error).message).toContain('ap1');
    });

    it('refuses an X-Workspace-Id naming another workspace with 403 E03002', async () => {
      const other = await createWorkspace(base, ADMIN_TOKEN, { name: 'Other', region: 'eu1' });
      const bird = new BirdClient({
        apiKey: acme.api_key.secret,
        baseUrl: base,
        maxRetries: 0,
        defaultHeaders: { 'X-Workspace-Id': other.workspace.id },
      });
      const error = await bird.workspace.get().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(BirdPermissionError);
      expect(error).toMatchObject({ statusCode: 403, code: 'E03002' });
      const own = await call(base, 'GET', '/v1/workspace', {
        token: other.api_key.secret,
        headers: { 'x-workspace-id': other.workspace.id },
      });
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ id: other.workspace.id });
    });

    it('lets a read key read the workspace', async () => {
      const key = await call<{ secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { token: ADMIN_TOKEN, body: { role: 'read' } },
      );
      const bird = new BirdClient({ apiKey: key.body.secret, baseUrl: base });
      await expect(bird.workspace.get()).resolves.toMatchObject({ id: acme.workspace.id });
    });
  });

  describe('the error envelope', () => {
    const workspaces = async () =>
      (await platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM gateway.workspaces'))
        .rows[0].n;

    it('answers an unknown route 404 E01006', async () => {
      expectEnvelope(await call(base, 'GET', '/v1/no-such-route'), 404, 'E01006');
    });

    it('answers a known path with the wrong method 405 E01007 with Allow', async () => {
      const response = await call(base, 'DELETE', '/v1/workspace', { token: acme.api_key.secret });
      expectEnvelope(response, 405, 'E01007');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });

    it('answers malformed JSON 400 E01002', async () => {
      expectEnvelope(
        await call(base, 'POST', '/admin/v1/workspaces', {
          token: ADMIN_TOKEN,
          rawBody: '{"name":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'E01002',
      );
    });

    it('answers a body over 1 MB 413 E01003 and creates nothing', async () => {
      const before = await workspaces();
      const huge = JSON.stringify({ name: 'x'.repeat(1_100_000) });
      expectEnvelope(
        await call(base, 'POST', '/admin/v1/workspaces', {
          token: ADMIN_TOKEN,
          rawBody: huge,
          headers: { 'content-type': 'application/json' },
        }),
        413,
        'E01003',
      );
      expect(await workspaces()).toBe(before);
    });

    it('answers a body nested deeper than the call stack 422, escapes and all, without a credential', async () => {
      const response = await call(base, 'POST', '/auth/v1/sessions', {
        rawBody: `{"email":"\\u0061","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 422, 'E01001');
    });

    it('answers a non-JSON body 415 E01008', async () => {
      expectEnvelope(
        await call(base, 'POST', '/admin/v1/workspaces', {
          token: ADMIN_TOKEN,
          rawBody: 'name=x',
          headers: { 'content-type': 'text/plain' },
        }),
        415,
        'E01008',
      );
    });

    it('answers a content-encoded body 415 E01008 instead of reading it as plain JSON', async () => {
      const before = await workspaces();
      for (const encoding of ['gzip', 'br, identity', 'x-unknown'])
        expectEnvelope(
          await call(base, 'POST', '/admin/v1/workspaces', {
            token: ADMIN_TOKEN,
            rawBody: '{"name":"Encoded"}',
            headers: { 'content-type': 'application/json', 'content-encoding': encoding },
          }),
          415,
          'E01008',
        );
      expect(await workspaces()).toBe(before);
      const identity = await call(base, 'POST', '/admin/v1/workspaces', {
        token: ADMIN_TOKEN,
        rawBody: '{"name":"Identity"}',
        headers: { 'content-type': 'application/json', 'content-encoding': 'Identity' },
      });
      expect(identity.status).toBe(201);
    });

    it('answers validation failures 422 E01001 naming each field, unknown fields included', async () => {
      const response = await call(base, 'POST', '/admin/v1/workspaces', {
        token: ADMIN_TOKEN,
        body: { name: 7, colour: 'red' },
      });
      expectEnvelope(response, 422, 'E01001');
      const params = (
        response.body as { error: { details: Array<{ param: string }> } }
      ).error.details.map((d) => d.param);
      expect(params).toEqual(expect.arrayContaining(['name', 'colour']));
    });

    it('rejects an unknown query parameter by name with 422', async () => {
      const response = await call(base, 'GET', '/v1/workspace?expand=all', {
        token: acme.api_key.secret,
      });
      expectEnvelope(response, 422, 'E01001');
      expect(response.body).toMatchObject({ error: { details: [{ param: 'expand' }] } });
    });

    it('answers missing credentials 401 E02001', async () => {
      expectEnvelope(await call(base, 'GET', '/v1/workspace'), 401, 'E02001');
    });

    it('sends X-Request-Id on successful responses too', async () => {
      const response = await call(base, 'GET', '/healthz');
      expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
    });
  });

  describe('CookieAuth sessions', () => {
    it('signs in, reads with the cookie, and signs out', async () => {
      const user = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/users`, {
        token: ADMIN_TOKEN,
        body: { email: 'Ada@Example.com', password: 'correct horse battery', role: 'write' },
      });
      expect(user.status).toBe(201);
      expect(user.body).toMatchObject({
        email: 'ada@example.com',
        role: 'write',
        workspace_id: acme.workspace.id,
      });

      const wrong = await call(base, 'POST', '/auth/v1/sessions', {
        body: { email: 'ada@example.com', password: 'nope' },
      });
      expect(wrong.status).toBe(401);

      const login = await call<{ csrf_token: string }>(base, 'POST', '/auth/v1/sessions', {
        body: { email: 'ada@example.com', password: 'correct horse battery' },
      });
      expect(login.status).toBe(201);
      const setCookie = login.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^session=sess_[0-9a-z]+; Path=\/; HttpOnly; SameSite=Lax/);
      const cookie = setCookie.split(';')[0];

      const read = await call(base, 'GET', '/v1/workspace', { headers: { cookie } });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: acme.workspace.id });

      const logout = await call(base, 'DELETE', '/auth/v1/sessions', { headers: { cookie } });
      expect(logout.status).toBe(204);
      const after = await call(base, 'GET', '/v1/workspace', { headers: { cookie } });
      expect(after.status).toBe(401);
    });

    it('refuses a mutating request with the session cookie and a missing or wrong X-CSRF-Token with 403 E03003; the right token mutates, a GET needs none', async () => {
      const email = 'grace@example.com';
      const password = 'correct horse battery staple';
      const user = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/users`, {
        token: ADMIN_TOKEN,
        body: { email, password, role: 'admin' },
      });
      expect(user.status).toBe(201);
      const signIn = async () => {
        const login = await call<{ csrf_token: string }>(base, 'POST', '/auth/v1/sessions', {
          body: { email, password },
        });
        expect(login.status).toBe(201);
        expect(login.body.csrf_token).toEqual(expect.any(String));
        return {
          cookie: (login.headers.get('set-cookie') ?? '').split(';')[0],
          csrf: login.body.csrf_token,
        };
      };
      const session = await signIn();
      const other = await signIn();
      expect(other.csrf).not.toBe(session.csrf);
      const create = (name: string, headers: Record<string, string> = {}) =>
        call<{ app: { id: string; name: string } }>(base, 'POST', '/v1/realtime/apps', {
          headers: { cookie: session.cookie, ...headers },
          body: { name, region: 'us1' },
        });
      const created = async (name: string) =>
        (
          await platform.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM realtime.apps WHERE name = $1',
            [name],
          )
        ).rows[0].n;

      // The right token with its last character changed: same prefix and length.
      const wrongToken = `${session.csrf.slice(0, -1)}${session.csrf.endsWith('0') ? '1' : '0'}`;
      expectEnvelope(await create('csrf-missing'), 403, 'E03003');
      expectEnvelope(await create('csrf-empty', { 'x-csrf-token': '' }), 403, 'E03003');
      expectEnvelope(await create('csrf-wrong', { 'x-csrf-token': wrongToken }), 403, 'E03003');
      // A valid token of another session of the same user is not this session's token.
      expectEnvelope(
        await create('csrf-other-session', { 'x-csrf-token': other.csrf }),
        403,
        'E03003',
      );
      for (const name of ['csrf-missing', 'csrf-empty', 'csrf-wrong', 'csrf-other-session'])
        expect(await created(name)).toBe(0);

      const allowed = await create('csrf-right', { 'x-csrf-token': session.csrf });
      expect(allowed.status).toBe(201);
      expect(allowed.body.app).toMatchObject({ name: 'csrf-right' });
      expect(await created('csrf-right')).toBe(1);

      const appPath = `/v1/realtime/apps/${allowed.body.app.id}`;
      const read = await call<{ id: string }>(base, 'GET', appPath, {
        headers: { cookie: session.cookie },
      });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: allowed.body.app.id });
      const list = await call<{ data: Array<{ id: string }> }>(base, 'GET', '/v1/realtime/apps', {
        headers: { cookie: session.cookie },
      });
      expect(list.status).toBe(200);
      expect(list.body.data.map((app) => app.id)).toContain(allowed.body.app.id);
    });
  });

  describe('OpenAPI document', () => {
    it('serves an OpenAPI 3.1 document generated from the routes and their DTOs', async () => {
      const response = await call<{
        openapi: string;
        paths: Record<
          string,
          Record<string, { parameters: Array<{ name: string }>; requestBody?: unknown }>
        >;
      }>(base, 'GET', '/v1/openapi.json');
      expect(response.status).toBe(200);
      expect(response.body.openapi).toBe('3.1.0');
      expect(Object.keys(response.body.paths)).toEqual(
        expect.arrayContaining([
          '/v1/workspace',
          '/v1/docs/search',
          '/v1/docs/pages',
          '/admin/v1/workspaces',
          '/admin/v1/workspaces/{workspace_id}/api-keys',
        ]),
      );
      expect(response.body.paths['/v1/docs/search'].get.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(['q', 'limit', 'contents', 'locale']),
      );
      expect(response.body.paths['/admin/v1/workspaces'].post.requestBody).toBeDefined();
    });
  });
});
