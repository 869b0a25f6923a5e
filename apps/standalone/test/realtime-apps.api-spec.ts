import { connect } from 'node:net';
import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse, CreatedWorkspace } from '@switchboard/testing';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import { purgeIdempotencyRecords } from '@switchboard/persistence';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const ADMIN_TOKEN = TEST_ADMIN_TOKEN;

interface App {
  id: string;
  app_id: string;
  name: string;
  region: string;
  status: string;
  connection_counting: boolean;
  tls_enforced: boolean;
  websocket_url: string;
  created_at: string;
  updated_at: string;
}
interface Key {
  id: string;
  app_id: string;
  secret?: string;
  created_at: string;
  revoked_at: string | null;
}
interface Page {
  data: App[];
  next_cursor: string | null;
  prev_cursor: string | null;
  refresh_cursor: string | null;
  total?: number;
}

/**
 * One HTTP/1.1 request written byte for byte on a socket. fetch and node:http refuse to send some
 * header bytes (DEL and other controls) or trim them, so this is how a header value reaches the
 * server exactly as given. The value is sent as UTF-8.
 */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const url = new URL(base);
  const payload = Buffer.from(JSON.stringify(body));
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${payload.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // write, not end: Node's server aborts a request whose client half-closed the socket. The
    // server closes it after answering (Connection: close).
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), payload]));
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const raw = split < 0 ? '' : text.slice(split + 4);
      let parsed: unknown = raw;
      try {
        parsed = JSON.parse(raw);
      } catch {
        // not JSON: kept as text
      }
      resolve({ status, body: parsed });
    });
  });
}

describe('realtime control plane through the gateway', () => {
  let platform: TestPlatform;
  let db: Client;
  let base: string;
  let acme: CreatedWorkspace;
  let admin: string;
  const api = <T = Record<string, unknown>>(
    method: string,
    path: string,
    options: Parameters<typeof call>[3] = {},
  ): Promise<ApiResponse<T>> => call<T>(base, method, path, { token: admin, ...options });

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'api_list=100000,read=100000,write=100000' });
    base = platform.base;
    db = platform.db;
    acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Acme' });
    admin = acme.api_key.secret;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  const createApp = async (name: string, headers: Record<string, string> = {}) => {
    const response = await api<{ app: App; key: Key }>('POST', '/v1/realtime/apps', {
      body: { name, region: 'us1' },
      headers,
    });
    if (response.status !== 201)
      throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  describe('apps and keys', () => {
    it('lists the regions', async () => {
      const response = await api('GET', '/v1/realtime/regions');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: [
          { id: 'us1', name: expect.any(String) },
          { id: 'eu1', name: expect.any(String) },
        ],
      });
    });

    it('creates an app with its first key and a one-time secret', async () => {
      const response = await api<{ app: App; key: Key }>('POST', '/v1/realtime/apps', {
        body: { name: 'Chat', region: 'eu1', connection_counting: true },
      });
      expect(response.status).toBe(201);
      expect(response.body.app).toEqual({
        id: expect.stringMatching(/^rap_[0-9a-z]{26}$/),
        app_id: expect.any(String),
        name: 'Chat',
        region: 'eu1',
        status: 'active',
        connection_counting: true,
        tls_enforced: true,
        websocket_url: `${base.replace('http', 'ws')}/app`,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(response.body.key).toEqual({
        id: expect.stringMatching(/^rak_/),
        app_id: response.body.app.id,
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
        created_at: expect.any(String),
        revoked_at: null,
      });
    });

    it('never returns secrets again and stores them encrypted', async () => {
      const { app, key } = await createApp('Secretive');
      const read = await api('GET', `/v1/realtime/apps/${app.id}`);
      const keys = await api<{ data: Key[] }>('GET', `/v1/realtime/apps/${app.id}/keys`);
      expect(JSON.stringify([read.body, keys.body])).not.toContain(key.secret);
      expect(keys.body.data).toEqual([
        { id: key.id, app_id: app.id, created_at: key.created_at, revoked_at: null },
      ]);
      const stored = await db.query<{ secret_sealed: string }>(
        'SELECT secret_sealed FROM realtime.app_keys WHERE id = $1',
        [key.id],
      );
      expect(stored.rows[0].secret_sealed).not.toContain(key.secret);
      const dump = await db.query(
        'SELECT * FROM realtime.idempotency_records UNION ALL SELECT NULL, NULL, NULL, outcome_sealed, NULL FROM gateway.idempotency_keys',
      );
      expect(JSON.stringify(dump.rows)).not.toContain(key.secret);
    });

    it('patches the name and flags, leaves omitted fields unchanged, and refuses region and TLS changes', async () => {
      const { app } = await createApp('Before');
      const renamed = await api<App>('PATCH', `/v1/realtime/apps/${app.id}`, {
        body: { name: 'After' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        name: 'After',
        region: 'us1',
        connection_counting: false,
      });
      const flagged = await api<App>('PATCH', `/v1/realtime/apps/${app.id}`, {
        body: { connection_counting: true },
      });
      expect(flagged.body).toMatchObject({ name: 'After', connection_counting: true });
      const region = await api('PATCH', `/v1/realtime/apps/${app.id}`, { body: { region: 'eu1' } });
      expect(region.status).toBe(422);
      expect(region.body).toMatchObject({
        error: { code: 'E01014', details: [{ param: 'region' }] },
      });
      const tls = await api('PATCH', `/v1/realtime/apps/${app.id}`, {
        body: { tls_enforced: false },
      });
      expect(tls.body).toMatchObject({
        error: { code: 'E01014', details: [{ param: 'tls_enforced' }] },
      });
      const unknown = await api('PATCH', `/v1/realtime/apps/${app.id}`, {
        body: { colour: 'red' },
      });
      expect(unknown.body).toMatchObject({
        error: { code: 'E01001', details: [{ param: 'colour' }] },
      });
    });

    it('deletes an app with its keys (204), then 404s it', async () => {
      const { app, key } = await createApp('Doomed');
      expect((await api('DELETE', `/v1/realtime/apps/${app.id}`)).status).toBe(204);
      const gone = await api('GET', `/v1/realtime/apps/${app.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ error: { type: 'not_found_error', code: 'E04003' } });
      expect(
        (await db.query('SELECT 1 FROM realtime.app_keys WHERE id = $1', [key.id])).rowCount,
      ).toBe(0);
      expect((await api('DELETE', `/v1/realtime/apps/${app.id}`)).status).toBe(404);
    });

    it('walks the key state machine: create, list oldest first, revoke 200, again 409, last active 422', async () => {
      const { app, key: first } = await createApp('Keys');
      const second = await api<Key>('POST', `/v1/realtime/apps/${app.id}/keys`);
      expect(second.status).toBe(201);
      expect(second.body.secret).toMatch(/^[0-9a-f]{64}$/);
      const listed = await api<{ data: Key[] }>('GET', `/v1/realtime/apps/${app.id}/keys`);
      expect(listed.body.data.map((k) => k.id)).toEqual([first.id, second.body.id]);

      const revoked = await api<Key>('POST', `/v1/realtime/apps/${app.id}/keys/${first.id}/revoke`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: first.id, revoked_at: expect.any(String) });
      const again = await api('POST', `/v1/realtime/apps/${app.id}/keys/${first.id}/revoke`);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: { type: 'conflict_error', code: 'E06001' } });
      const last = await api('POST', `/v1/realtime/apps/${app.id}/keys/${second.body.id}/revoke`);
      expect(last.status).toBe(422);
      expect(last.body).toMatchObject({ error: { code: 'E01013' } });

      expect(
        (await api<{ data: Key[] }>('GET', `/v1/realtime/apps/${app.id}/keys`)).body.data.map(
          (k) => k.id,
        ),
      ).toEqual([second.body.id]);
      const all = await api<{ data: Key[] }>(
        'GET',
        `/v1/realtime/apps/${app.id}/keys?include_revoked=true`,
      );
      expect(all.body.data.map((k) => k.id)).toEqual([first.id, second.body.id]);
      expect(
        (await api('POST', `/v1/realtime/apps/${app.id}/keys/rak_unknown/revoke`)).body,
      ).toMatchObject({ error: { code: 'E04004' } });
    });

    it('needs an admin key to manage apps; a read key may list and read; another workspace sees 404', async () => {
      const { app } = await createApp('Guarded');
      const readKey = await call<{ secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { token: ADMIN_TOKEN, body: { role: 'read' } },
      );
      const writeKey = await call<{ secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { token: ADMIN_TOKEN, body: { role: 'write' } },
      );
      expect(
        (await call(base, 'GET', `/v1/realtime/apps/${app.id}`, { token: readKey.body.secret }))
          .status,
      ).toBe(200);
      expect(
        (await call(base, 'GET', '/v1/realtime/apps', { token: readKey.body.secret })).status,
      ).toBe(200);
      const denied = await call(base, 'POST', '/v1/realtime/apps', {
        token: writeKey.body.secret,
        body: { name: 'x', region: 'us1' },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ error: { type: 'permission_error', code: 'E03001' } });
      expect(
        (await call(base, 'DELETE', `/v1/realtime/apps/${app.id}`, { token: readKey.body.secret }))
          .status,
      ).toBe(403);
      const other = await createWorkspace(base, ADMIN_TOKEN, { name: 'Other' });
      expect(
        (await call(base, 'GET', `/v1/realtime/apps/${app.id}`, { token: other.api_key.secret }))
          .status,
      ).toBe(404);
      expect(
        (
          await call(base, 'POST', `/v1/realtime/apps/${app.id}/keys`, {
            token: other.api_key.secret,
          })
        ).status,
      ).toBe(404);
    });

    it('validates the create body by field name', async () => {
      const response = await api('POST', '/v1/realtime/apps', {
        body: { name: '', region: 'mars', flags: 1 },
      });
      expect(response.status).toBe(422);
      const params = (
        response.body as { error: { details: Array<{ param: string }> } }
      ).error.details.map((d) => d.param);
      expect(params).toEqual(expect.arrayContaining(['name', 'region', 'flags']));
    });
  });

  describe('idempotency', () => {
    it('replays the first outcome for a retry, with Idempotency-Replay: true', async () => {
      const headers = { 'idempotency-key': 'create-replay-1' };
      const first = await api<{ app: App; key: Key }>('POST', '/v1/realtime/apps', {
        body: { name: 'Once', region: 'us1' },
        headers,
      });
      const retry = await api<{ app: App; key: Key }>('POST', '/v1/realtime/apps', {
        body: { name: 'Once', region: 'us1' },
        headers,
      });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotency-replay')).toBeNull();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotency-replay')).toBe('true');
      expect(retry.body).toEqual(first.body);
    });

    it('replays a 4xx outcome too', async () => {
      const headers = { 'idempotency-key': 'revoke-unknown-1' };
      const { app } = await createApp('Replay4xx');
      // A well-formed id that names no key: the realtime service answers the 404, after the
      // gateway claimed the key (a malformed id is refused before idempotency applies).
      const unknownKey = `rak_${'0'.repeat(26)}`;
      const path = `/v1/realtime/apps/${app.id}/keys/${unknownKey}/revoke`;
      const first = await api('POST', path, { headers });
      const retry = await api('POST', path, { headers });
      expect([first.status, retry.status]).toEqual([404, 404]);
      expect(first.headers.get('idempotency-replay')).toBeNull();
      expect(retry.headers.get('idempotency-replay')).toBe('true');
      expect(first.body).toMatchObject({ error: { code: 'E04004' } });
      // The replayed envelope carries the retry's own request id, and otherwise the first answer.
      const withoutRequestId = (body: Record<string, unknown>) => ({
        ...body,
        error: { ...(body.error as object), request_id: undefined },
      });
      expect(withoutRequestId(retry.body)).toEqual(withoutRequestId(first.body));
      expect(retry.body).toMatchObject({
        error: { request_id: retry.headers.get('x-request-id') },
      });
    });

    it('answers 409 E01005 when the key is reused with another body', async () => {
      const headers = { 'idempotency-key': 'create-conflict-1' };
      await api('POST', '/v1/realtime/apps', { body: { name: 'First', region: 'us1' }, headers });
      const reused = await api('POST', '/v1/realtime/apps', {
        body: { name: 'Second', region: 'us1' },
        headers,
      });
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ error: { type: 'conflict_error', code: 'E01005' } });
    });

    it('creates exactly one resource for 20 concurrent requests with one key', async () => {
      const headers = { 'idempotency-key': 'create-concurrent-1' };
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          api<{ app?: App }>('POST', '/v1/realtime/apps', {
            body: { name: 'Concurrent', region: 'us1' },
            headers,
          }),
        ),
      );
      const created = responses.filter((r) => r.status === 201);
      const inFlight = responses.filter((r) => r.status === 409);
      expect(created.length + inFlight.length).toBe(20);
      expect(new Set(created.map((r) => r.body.app?.id)).size).toBe(1);
      for (const response of inFlight) {
        expect(response.body).toMatchObject({ error: { code: 'E01004' } });
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      const rows = await db.query(
        "SELECT count(*)::int AS n FROM realtime.apps WHERE name = 'Concurrent'",
      );
      expect(rows.rows[0].n).toBe(1);
    });

    it('still creates one resource when the gateway died between forwarding and recording', async () => {
      const headers = { 'idempotency-key': 'create-crash-1' };
      const first = await api<{ app: App }>('POST', '/v1/realtime/apps', {
        body: { name: 'Crash', region: 'us1' },
        headers,
      });
      // What a gateway that died after the service committed leaves behind: its key still
      // claimed, never completed, the claim's lock expired.
      await db.query(
        "UPDATE gateway.idempotency_keys SET state = 'in_progress', status = NULL, outcome_sealed = NULL, locked_until = now() - interval '1 second' WHERE key = $1",
        ['create-crash-1'],
      );
      const retry = await api<{ app: App }>('POST', '/v1/realtime/apps', {
        body: { name: 'Crash', region: 'us1' },
        headers,
      });
      expect(retry.status).toBe(201);
      expect(retry.body.app.id).toBe(first.body.app.id);
      expect(
        (await db.query("SELECT count(*)::int AS n FROM realtime.apps WHERE name = 'Crash'"))
          .rows[0].n,
      ).toBe(1);
    });

    it('purges idempotency records older than the retention, and keeps recent ones', async () => {
      await api('POST', '/v1/realtime/apps', {
        body: { name: 'Old', region: 'us1' },
        headers: { 'idempotency-key': 'purge-old' },
      });
      await api('POST', '/v1/realtime/apps', {
        body: { name: 'New', region: 'us1' },
        headers: { 'idempotency-key': 'purge-new' },
      });
      await db.query(
        "UPDATE realtime.idempotency_records SET created_at = now() - interval '25 hours' WHERE key = 'purge-old'",
      );
      const dataSource = new DataSource({ type: 'postgres', url: platform.databaseUrl });
      await dataSource.initialize();
      expect(await purgeIdempotencyRecords(dataSource, 'realtime', 24)).toBe(1);
      await dataSource.destroy();
      const left = await db.query(
        "SELECT key FROM realtime.idempotency_records WHERE key LIKE 'purge-%'",
      );
      expect(left.rows.map((r: { key: string }) => r.key)).toEqual(['purge-new']);
    });

    it('refuses an Idempotency-Key longer than 255 characters or with control characters', async () => {
      const appsNamed = async (name: string) =>
        (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM realtime.apps WHERE name = $1',
            [name],
          )
        ).rows[0].n;
      const refusedByName = {
        error: { code: 'E01001', details: [{ param: 'Idempotency-Key' }] },
      };

      const long = await api('POST', '/v1/realtime/apps', {
        body: { name: 'key-too-long', region: 'us1' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      });
      expect(long.status).toBe(422);
      expect(long.body).toMatchObject(refusedByName);
      const longest = await api('POST', '/v1/realtime/apps', {
        body: { name: 'key-255', region: 'us1' },
        headers: { 'idempotency-key': 'k'.repeat(255) },
      });
      expect(longest.status).toBe(201);

      // Bytes HTTP allows in a header value but the rule (printable ASCII) does not: they reach
      // the gateway, which must refuse them by name. Sent raw: fetch would refuse or trim them.
      const invalid: Array<[string, string]> = [
        ['tab', 'key\twith-tab'],
        ['non-ascii', 'key-\u00e9t\u00e9'],
        ['emoji', 'key-\u{1f511}'],
      ];
      for (const [label, key] of invalid) {
        const name = `key-${label}`;
        const response = await rawRequest(
          base,
          'POST',
          '/v1/realtime/apps',
          { Authorization: `Bearer ${admin}`, 'Idempotency-Key': key },
          { name, region: 'us1' },
        );
        expect({ label, status: response.status }).toEqual({ label, status: 422 });
        expect(response.body).toMatchObject(refusedByName);
        expect(await appsNamed(name)).toBe(0);
      }
      // DEL and the other controls never reach a route: Node's HTTP parser refuses them with 400.
      for (const [label, key] of [
        ['del', 'key\x7fdel'],
        ['escape', 'key\x1bescape'],
      ]) {
        const name = `key-${label}`;
        const response = await rawRequest(
          base,
          'POST',
          '/v1/realtime/apps',
          { Authorization: `Bearer ${admin}`, 'Idempotency-Key': key },
          { name, region: 'us1' },
        );
        expect({ label, status: response.status }).toEqual({ label, status: 400 });
        expect(await appsNamed(name)).toBe(0);
      }
      // The same request with a printable key is accepted: the refusals above were the key's.
      const printable = await rawRequest(
        base,
        'POST',
        '/v1/realtime/apps',
        { Authorization: `Bearer ${admin}`, 'Idempotency-Key': 'key with spaces ~!' },
        { name: 'key-printable', region: 'us1' },
      );
      expect(printable.status).toBe(201);
    });
  });

  describe('pagination of the apps list', () => {
    let listing: CreatedWorkspace;
    let token: string;

    beforeAll(async () => {
      listing = await createWorkspace(base, ADMIN_TOKEN, { name: 'Listing' });
      token = listing.api_key.secret;
      const statuses: number[] = [];
      for (let batch = 0; batch < 100; batch++) {
        const responses = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            call(base, 'POST', '/v1/realtime/apps', {
              token,
              body: { name: `App ${String(batch * 10 + i).padStart(4, '0')}`, region: 'us1' },
            }),
          ),
        );
        statuses.push(...responses.map((response) => response.status));
      }
      // Every test below reads exactly these 1,000 apps (App 0000 to App 0999) and adds none.
      expect(statuses.filter((status) => status !== 201)).toEqual([]);
    }, 120_000);

    const page = (query: string) => call<Page>(base, 'GET', `/v1/realtime/apps${query}`, { token });

    it('visits each of 1,000 rows once, in order, paging forward and then backward', async () => {
      const forward: App[] = [];
      let response = await page('?limit=100');
      expect(response.body.prev_cursor).toBeNull();
      forward.push(...response.body.data);
      while (response.body.next_cursor) {
        response = await page(`?limit=100&starting_after=${response.body.next_cursor}`);
        forward.push(...response.body.data);
      }
      expect(forward).toHaveLength(1000);
      expect(new Set(forward.map((a) => a.id)).size).toBe(1000);
      const times = forward.map((a) => Date.parse(a.created_at));
      expect(times.every((time, i) => i === 0 || time <= times[i - 1])).toBe(true);

      const backward: App[] = [...response.body.data];
      expect(response.body.prev_cursor).not.toBeNull();
      let cursor = response.body.prev_cursor;
      while (cursor) {
        const previous = await page(`?limit=100&ending_before=${cursor}`);
        backward.unshift(...previous.body.data);
        cursor = previous.body.prev_cursor;
      }
      expect(backward.map((a) => a.id)).toEqual(forward.map((a) => a.id));
    });

    it('returns only rows created since, through the refresh cursor', async () => {
      // Its own workspace: adding a row to the shared 1,000 would change what the others read.
      const own = (await createWorkspace(base, ADMIN_TOKEN, { name: 'Refreshing' })).api_key.secret;
      const create = (name: string) =>
        call<{ app: App }>(base, 'POST', '/v1/realtime/apps', {
          token: own,
          body: { name, region: 'us1' },
        });
      for (const name of ['Old 1', 'Old 2', 'Old 3']) expect((await create(name)).status).toBe(201);
      const ownPage = (query: string) =>
        call<Page>(base, 'GET', `/v1/realtime/apps${query}`, { token: own });
      const first = await ownPage('?limit=2');
      expect(first.body.data).toHaveLength(2);
      expect(first.body.refresh_cursor).not.toBeNull();
      const none = await ownPage(`?ending_before=${first.body.refresh_cursor}`);
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
      const fresh = await create('Fresh');
      expect(fresh.status).toBe(201);
      const since = await ownPage(`?ending_before=${first.body.refresh_cursor}`);
      expect(since.body.data.map((a) => a.id)).toEqual([fresh.body.app.id]);
    });

    it('filters by case-insensitive name substring, sorts by name, and reports the total when asked', async () => {
      const filtered = await page('?name=app%2000&include_total=true&limit=5');
      expect(filtered.body.total).toBe(100);
      expect(filtered.body.data.every((a) => a.name.toLowerCase().includes('app 00'))).toBe(true);
      const byName = await page('?sort=name&limit=3');
      expect(byName.body.data.map((a) => a.name)).toEqual(['App 0000', 'App 0001', 'App 0002']);
      const desc = await page('?sort=name&order=desc&limit=2');
      expect(desc.body.data.map((a) => a.name)).toEqual(['App 0999', 'App 0998']);
      expect((await page('?limit=2')).body.total).toBeUndefined();
    });

    it('answers 422 E01012 for malformed, tampered, other-sort and other-filter cursors', async () => {
      const first = await page('?limit=5');
      const cursor = first.body.next_cursor ?? '';
      const tampered = `${cursor.slice(0, -3)}${cursor.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
      const named = await page('?limit=5&name=app');
      for (const query of [
        `?starting_after=garbage`,
        `?starting_after=${tampered}`,
        `?sort=name&starting_after=${cursor}`,
        `?name=zzz&starting_after=${named.body.next_cursor}`,
        `?order=asc&starting_after=${cursor}`,
      ]) {
        const response = await page(query);
        expect({ query, status: response.status }).toEqual({ query, status: 422 });
        expect(response.body).toMatchObject({ error: { code: 'E01012' } });
      }
    });

    it('refuses an unknown sort field and a limit outside 1..100 by parameter name', async () => {
      expect((await page('?sort=colour')).body).toMatchObject({
        error: { code: 'E01001', details: [{ param: 'sort' }] },
      });
      expect((await page('?limit=101')).body).toMatchObject({
        error: { code: 'E01001', details: [{ param: 'limit' }] },
      });
      expect((await page('?limit=0')).body).toMatchObject({ error: { code: 'E01001' } });
    });
  });
});

describe('websocket_url follows PUBLIC_URL', () => {
  let platform: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    // Behind a TLS-terminating proxy: the gateway listens on plain HTTP, clients reach https://.
    platform = await startTestPlatform({ PUBLIC_URL: 'HTTPS://Switchboard.example.com/' });
    admin = (await createWorkspace(platform.base, ADMIN_TOKEN, { name: 'Behind TLS' })).api_key
      .secret;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('is wss:// on the public host when PUBLIC_URL is https, in create, read and list', async () => {
    const expected = 'wss://switchboard.example.com/app';
    const created = await call<{ app: App }>(platform.base, 'POST', '/v1/realtime/apps', {
      token: admin,
      body: { name: 'Secure', region: 'us1' },
    });
    expect(created.status).toBe(201);
    expect(created.body.app).toMatchObject({ tls_enforced: true, websocket_url: expected });
    const read = await call<App>(platform.base, 'GET', `/v1/realtime/apps/${created.body.app.id}`, {
      token: admin,
    });
    expect(read.body.websocket_url).toBe(expected);
    const list = await call<Page>(platform.base, 'GET', '/v1/realtime/apps', { token: admin });
    expect(list.body.data.map((app) => app.websocket_url)).toEqual([expected]);
  });
});
