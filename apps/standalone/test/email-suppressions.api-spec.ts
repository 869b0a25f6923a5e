import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse, CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const ADMIN_TOKEN = TEST_ADMIN_TOKEN;

interface Suppression {
  id: string;
  email: string;
  scope: { type: string; id: string };
  reason: string;
  origin: string;
  applies_to: string;
  source_email_id: string | null;
  source_recipient_id: string | null;
  created_at: string;
}
interface Page {
  data: Suppression[];
  next_cursor: string | null;
  prev_cursor: string | null;
  refresh_cursor: string | null;
  total?: number;
}
interface Envelope {
  error: { code: string; type: string; details?: Array<{ param: string; message: string }> };
}

const params = (body: unknown) =>
  ((body as Envelope).error.details ?? []).map((detail) => detail.param);

/** The suppression list over HTTP (the SDK has no suppressions resource: raw calls). */
describe('email suppressions through the gateway', () => {
  let platform: TestPlatform;
  let base: string;
  let acme: CreatedWorkspace;
  const api = <T = Record<string, unknown>>(
    method: string,
    path: string,
    options: Parameters<typeof call>[3] = {},
  ): Promise<ApiResponse<T>> =>
    call<T>(base, method, path, { token: acme.api_key.secret, ...options });
  const add = (email: string, options: Parameters<typeof call>[3] = {}) =>
    api<Suppression>('POST', '/v1/email/suppressions', { body: { email }, ...options });
  const keyWithRole = async (role: 'read' | 'write') =>
    (
      await call<{ secret: string }>(
        base,
        'POST',
        `/admin/v1/workspaces/${acme.workspace.id}/api-keys`,
        { token: ADMIN_TOKEN, body: { role } },
      )
    ).body.secret;

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'api_list=100000,read=100000,write=100000' });
    base = platform.base;
    acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Acme' });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  describe('add', () => {
    it('creates a manual suppression with 201, then answers the same address 200 with the same record', async () => {
      const created = await add('ada@example.com');
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^sup_[0-9a-z]{26}$/),
        email: 'ada@example.com',
        scope: { type: 'workspace', id: acme.workspace.id },
        reason: 'manual',
        origin: 'api_key',
        applies_to: 'all',
        source_email_id: null,
        source_recipient_id: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const again = await add('ada@example.com');
      expect(again.status).toBe(200);
      expect(again.body).toEqual(created.body);
      expect(created.headers.get('ratelimit')).toMatch(/^"write";/);
    });

    it('trims and lowercases the address, so both spellings are one suppression', async () => {
      const created = await add('  Grace.Hopper@Example.COM ');
      expect(created.status).toBe(201);
      expect(created.body.email).toBe('grace.hopper@example.com');
      const again = await add('grace.hopper@example.com');
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(created.body.id);
    });

    it('refuses a malformed address, a missing one and an unknown field with 422 naming them', async () => {
      for (const email of ['not-an-address', '', 'a@', 42]) {
        const response = await api('POST', '/v1/email/suppressions', { body: { email } });
        expect(response.status).toBe(422);
        expect(response.body).toMatchObject({
          error: { type: 'validation_error', code: 'E01001' },
        });
        expect(params(response.body)).toContain('email');
      }
      const missing = await api('POST', '/v1/email/suppressions', { body: {} });
      expect(missing.status).toBe(422);
      expect(params(missing.body)).toContain('email');
      const unknown = await api('POST', '/v1/email/suppressions', {
        body: { email: 'x@example.com', reason: 'hard_bounce' },
      });
      expect(unknown.status).toBe(422);
      expect(params(unknown.body)).toEqual(['reason']);
    });

    it('replays the first outcome for a retry with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': 'suppress-replay-1' };
      const first = await add('replay@example.com', { headers });
      const retry = await add('replay@example.com', { headers });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotency-replay')).toBeNull();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotency-replay')).toBe('true');
      expect(retry.body).toEqual(first.body);
      // Another body under the same key is a conflict.
      const other = await add('someone-else@example.com', { headers });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ error: { code: 'E01005' } });
      // A new key for the same address: the existing record, 200.
      const later = await add('replay@example.com', {
        headers: { 'idempotency-key': 'suppress-replay-2' },
      });
      expect(later.status).toBe(200);
      expect(later.body.id).toBe(first.body.id);
    });

    it('records origin user when a dashboard session adds the address', async () => {
      const email = 'dashboard-user@example.com';
      const password = 'correct horse battery staple';
      const user = await call(base, 'POST', `/admin/v1/workspaces/${acme.workspace.id}/users`, {
        token: ADMIN_TOKEN,
        body: { email, password, role: 'write' },
      });
      expect(user.status).toBe(201);
      const login = await call<{ csrf_token: string }>(base, 'POST', '/auth/v1/sessions', {
        body: { email, password },
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
      const created = await call<Suppression>(base, 'POST', '/v1/email/suppressions', {
        headers: { cookie, 'x-csrf-token': login.body.csrf_token },
        body: { email: 'from-dashboard@example.com' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ reason: 'manual', origin: 'user' });
    });
  });

  describe('list', () => {
    let list: CreatedWorkspace;
    const listApi = <T = Page>(path: string) =>
      call<T>(base, 'GET', path, { token: list.api_key.secret });

    beforeAll(async () => {
      list = await createWorkspace(base, ADMIN_TOKEN, { name: 'Lists' });
      for (const email of [
        'alice@example.com',
        'alan@example.com',
        'al_x@example.com',
        'bob@example.com',
        'ALBERT@example.org',
      ]) {
        const response = await call(base, 'POST', '/v1/email/suppressions', {
          token: list.api_key.secret,
          body: { email },
        });
        expect(response.status).toBe(201);
      }
    });

    it('lists newest first, only the workspace’s own', async () => {
      const page = await listApi('/v1/email/suppressions');
      expect(page.status).toBe(200);
      expect(page.body.data.map((s) => s.email)).toEqual([
        'albert@example.org',
        'bob@example.com',
        'al_x@example.com',
        'alan@example.com',
        'alice@example.com',
      ]);
      expect(page.body).toMatchObject({ next_cursor: null, prev_cursor: null });
      expect(page.body.total).toBeUndefined();
      expect(page.headers.get('ratelimit')).toMatch(/^"api_list";/);
    });

    it('filters by a case-insensitive prefix of the address, LIKE characters literal', async () => {
      const al = await listApi('/v1/email/suppressions?email=AL');
      expect(al.body.data.map((s) => s.email)).toEqual([
        'albert@example.org',
        'al_x@example.com',
        'alan@example.com',
        'alice@example.com',
      ]);
      const underscore = await listApi('/v1/email/suppressions?email=al_');
      expect(underscore.body.data.map((s) => s.email)).toEqual(['al_x@example.com']);
      const none = await listApi('/v1/email/suppressions?email=example.com');
      expect(none.body.data).toEqual([]);
    });

    it('filters by reason and scope_type, and refuses unknown values and include_total', async () => {
      const manual = await listApi('/v1/email/suppressions?reason=manual&scope_type=workspace');
      expect(manual.body.data).toHaveLength(5);
      expect((await listApi('/v1/email/suppressions?reason=hard_bounce')).body.data).toEqual([]);
      expect((await listApi('/v1/email/suppressions?scope_type=audience')).body.data).toEqual([]);
      for (const [query, param] of [
        ['reason=bounced', 'reason'],
        ['scope_type=planet', 'scope_type'],
        ['include_total=true', 'include_total'],
        ['sort=email', 'sort'],
        ['limit=0', 'limit'],
      ]) {
        const response = await listApi(`/v1/email/suppressions?${query}`);
        expect(response.status).toBe(422);
        expect(params(response.body)).toContain(param);
      }
    });

    it('pages with keyset cursors both ways, and refuses a cursor under other filters', async () => {
      const first = await listApi('/v1/email/suppressions?limit=2');
      expect(first.body.data.map((s) => s.email)).toEqual([
        'albert@example.org',
        'bob@example.com',
      ]);
      expect(first.body.prev_cursor).toBeNull();
      const second = await listApi(
        `/v1/email/suppressions?limit=2&starting_after=${encodeURIComponent(first.body.next_cursor!)}`,
      );
      expect(second.body.data.map((s) => s.email)).toEqual([
        'al_x@example.com',
        'alan@example.com',
      ]);
      const third = await listApi(
        `/v1/email/suppressions?limit=2&starting_after=${encodeURIComponent(second.body.next_cursor!)}`,
      );
      expect(third.body.data.map((s) => s.email)).toEqual(['alice@example.com']);
      expect(third.body.next_cursor).toBeNull();
      const back = await listApi(
        `/v1/email/suppressions?limit=2&ending_before=${encodeURIComponent(third.body.prev_cursor!)}`,
      );
      expect(back.body.data).toEqual(second.body.data);

      const filtered = await listApi(
        `/v1/email/suppressions?limit=2&email=al&starting_after=${encodeURIComponent(first.body.next_cursor!)}`,
      );
      expect(filtered.status).toBe(422);
      expect(filtered.body).toMatchObject({ error: { code: 'E01012' } });

      // Added since the first page: the refresh cursor returns it.
      const fresh = await call<Suppression>(base, 'POST', '/v1/email/suppressions', {
        token: list.api_key.secret,
        body: { email: 'newest@example.com' },
      });
      const since = await listApi(
        `/v1/email/suppressions?ending_before=${encodeURIComponent(first.body.refresh_cursor!)}`,
      );
      expect(since.body.data.map((s) => s.id)).toEqual([fresh.body.id]);
    });
  });

  describe('read and delete', () => {
    it('reads a suppression, deletes it with 204, then both answer 404 E04006', async () => {
      const created = await add('delete-me@example.com');
      const read = await api<Suppression>('GET', `/v1/email/suppressions/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
      const deleted = await api('DELETE', `/v1/email/suppressions/${created.body.id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeUndefined();
      for (const method of ['GET', 'DELETE']) {
        const gone = await api(method, `/v1/email/suppressions/${created.body.id}`);
        expect(gone.status).toBe(404);
        expect(gone.body).toMatchObject({ error: { type: 'not_found_error', code: 'E04006' } });
      }
      // Suppressing the address again creates a new record.
      const again = await add('delete-me@example.com');
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(created.body.id);
    });

    it('answers 404 E04006 for an unknown id, a malformed one and another workspace’s', async () => {
      const created = await add('private@example.com');
      const other = await createWorkspace(base, ADMIN_TOKEN, { name: 'Other' });
      for (const id of ['sup_00000000000000000000000000', 'nonsense', created.body.id]) {
        for (const method of ['GET', 'DELETE']) {
          const response = await call(base, method, `/v1/email/suppressions/${id}`, {
            token: other.api_key.secret,
          });
          expect(response.status).toBe(404);
          expect(response.body).toMatchObject({ error: { code: 'E04006' } });
        }
      }
      expect((await api('GET', `/v1/email/suppressions/${created.body.id}`)).status).toBe(200);
      const theirs = await call<Page>(base, 'GET', '/v1/email/suppressions', {
        token: other.api_key.secret,
      });
      expect(theirs.body.data).toEqual([]);
    });

    it('replays a delete under the same Idempotency-Key with 204', async () => {
      const created = await add('delete-twice@example.com');
      const headers = { 'idempotency-key': 'unsuppress-1' };
      const first = await api('DELETE', `/v1/email/suppressions/${created.body.id}`, { headers });
      const retry = await api('DELETE', `/v1/email/suppressions/${created.body.id}`, { headers });
      expect(first.status).toBe(204);
      expect(retry.status).toBe(204);
      expect(retry.headers.get('idempotency-replay')).toBe('true');
    });
  });

  describe('roles', () => {
    it('lets a read key list and read but not add or delete (403); a write key may do both', async () => {
      const read = await keyWithRole('read');
      const write = await keyWithRole('write');
      const created = await call<Suppression>(base, 'POST', '/v1/email/suppressions', {
        token: write,
        body: { email: 'written@example.com' },
      });
      expect(created.status).toBe(201);
      expect((await call(base, 'GET', '/v1/email/suppressions', { token: read })).status).toBe(200);
      expect(
        (await call(base, 'GET', `/v1/email/suppressions/${created.body.id}`, { token: read }))
          .status,
      ).toBe(200);
      const denied = await call(base, 'POST', '/v1/email/suppressions', {
        token: read,
        body: { email: 'read-only@example.com' },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ error: { type: 'permission_error', code: 'E03001' } });
      const deniedDelete = await call(base, 'DELETE', `/v1/email/suppressions/${created.body.id}`, {
        token: read,
      });
      expect(deniedDelete.status).toBe(403);
      expect(
        (await call(base, 'DELETE', `/v1/email/suppressions/${created.body.id}`, { token: write }))
          .status,
      ).toBe(204);
    });

    it('needs a credential (401)', async () => {
      expect((await call(base, 'GET', '/v1/email/suppressions')).status).toBe(401);
    });
  });
});
