import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import { call, createWorkspace, startDnsServer } from '@switchboard/testing';
import type { CreatedWorkspace, TestDnsServer } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Received {
  path: string;
  /** When it arrived (epoch ms). */
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver: records every request and answers what the test scripts per path. */
async function startReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        at: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const script = scripts.get(path);
      const status = script && script.length > 1 ? script.shift()! : (script?.[0] ?? 200);
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (status === 429) headers['retry-after'] = '1';
      res.writeHead(status, headers).end(`answer ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((request) => request.path === path),
    /** Status codes answered in turn on `path`; the last one repeats. */
    script: (path: string, statuses: number[]) => scripts.set(path, [...statuses]),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const eventually = async (check: () => Promise<boolean> | boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

interface Endpoint {
  id: string;
  url: string;
  status: string;
  events: string[];
  description?: string;
  secret?: string;
}

/**
 * Webhooks end to end on the embedded default: endpoints through the SDK and raw HTTP, events
 * from the email service (a suppression added through the API emits `email_suppression.created`)
 * delivered to a receiver the test starts, each delivery verified with the SDK's `unwrap`.
 */
describe('webhooks through the gateway', () => {
  let platform: TestPlatform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let acme: CreatedWorkspace;
  let bird: BirdClient;
  let suppressed = 0;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });
  /** Emits one `email_suppression.created` event in the workspace. */
  const emit = () =>
    api('POST', '/v1/email/suppressions', { email: `gone${++suppressed}@example.test` });
  const create = async (path: string, events = ['email_suppression.created']) => {
    const created = await bird.webhooks.create({ url: receiver.url(path), events });
    return created as unknown as Endpoint & { secret: string };
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    platform = await startTestPlatform({
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOKS_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms',
      RATE_LIMITS: 'read=100000,api_list=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
  });

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });

  it('creates an endpoint with a whsec_ secret shown once, reads, lists, updates and deletes it', async () => {
    const created = await create('/crud');
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      url: receiver.url('/crud'),
      events: ['email_suppression.created'],
      status: 'active',
    });
    expect(created.secret).toMatch(/^whsec_/);
    const read = (await bird.webhooks.get(created.id)) as unknown as Endpoint;
    expect(read).not.toHaveProperty('secret');
    const listed: Endpoint[] = [];
    for await (const endpoint of bird.webhooks.list()) listed.push(endpoint);
    expect(listed.map((endpoint) => endpoint.id)).toContain(created.id);
    expect(listed.every((endpoint) => !('secret' in endpoint))).toBe(true);

    const renamed = (await bird.webhooks.update(created.id, {
      description: 'orders',
    })) as unknown as Endpoint;
    expect(renamed).toMatchObject({ description: 'orders', events: ['email_suppression.created'] });
    const retyped = (await bird.webhooks.update(created.id, {
      events: ['email.delivered', 'email.bounced'],
    })) as unknown as Endpoint;
    expect(retyped).toMatchObject({
      description: 'orders',
      events: ['email.delivered', 'email.bounced'],
    });
    expect(
      ((await bird.webhooks.update(created.id, { status: 'paused' })) as unknown as Endpoint)
        .status,
    ).toBe('paused');
    expect(
      ((await bird.webhooks.update(created.id, { status: 'active' })) as unknown as Endpoint)
        .status,
    ).toBe('active');

    const unknownType = await api('POST', '/v1/webhooks', {
      url: receiver.url('/x'),
      events: ['email.sent_to_mars'],
    });
    expect(unknownType.status).toBe(422);
    await bird.webhooks.delete(created.id);
    const gone = await api('GET', `/v1/webhooks/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { code: 'E04010' } });
  });

  it('delivers events signed so that the SDK unwrap verifies every one', async () => {
    const endpoint = await create('/signed');
    await emit();
    await emit();
    await eventually(() => receiver.at('/signed').length >= 2);
    for (const request of receiver.at('/signed')) {
      const event = bird.webhooks.unwrap(request.body, request.headers as Record<string, string>, {
        secret: endpoint.secret,
      }) as unknown as { type: string; data: { email: string; workspace_id?: string } };
      expect(event.type).toBe('email_suppression.created');
      expect(event.data.email).toMatch(/^gone\d+@example\.test$/);
    }
    await bird.webhooks.delete(endpoint.id);
  });

  it('retries a failing receiver with the same webhook-id and lists three failed attempts and one delivered', async () => {
    receiver.script('/flaky', [500, 500, 500, 200]);
    const endpoint = await create('/flaky');
    await emit();
    await eventually(() => receiver.at('/flaky').length === 4);
    const ids = new Set(receiver.at('/flaky').map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of receiver.at('/flaky'))
      bird.webhooks.unwrap(request.body, request.headers as Record<string, string>, {
        secret: endpoint.secret,
      });
    let attempts: Array<{
      status: string;
      response_status_code: number | null;
      event_id?: string | null;
    }> = [];
    await eventually(async () => {
      attempts = (await bird.webhooks.attempts(endpoint.id)).data;
      return attempts.length === 4;
    });
    expect(attempts.map((attempt) => attempt.status)).toEqual([
      'delivered',
      'failed',
      'failed',
      'failed',
    ]);
    expect(attempts.map((attempt) => attempt.response_status_code)).toEqual([200, 500, 500, 500]);
    expect(new Set(attempts.map((attempt) => attempt.event_id)).size).toBe(1);
    await bird.webhooks.delete(endpoint.id);
  });

  it('signs with the old and the new secret after a rotation, and refuses a sixth valid secret', async () => {
    const endpoint = await create('/rotated');
    const { secret } = await bird.webhooks.rotateSecret(endpoint.id);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
    await emit();
    await eventually(() => receiver.at('/rotated').length === 1);
    const [request] = receiver.at('/rotated');
    const headers = request.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(bird.webhooks.unwrap(request.body, headers, { secret: endpoint.secret })).toBeTruthy();
    expect(bird.webhooks.unwrap(request.body, headers, { secret })).toBeTruthy();
    for (let valid = 2; valid < 5; valid++) await bird.webhooks.rotateSecret(endpoint.id);
    const sixth = await api('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`);
    expect(sixth.status).toBe(409);
    expect(sixth.body).toMatchObject({ error: { code: 'E06004' } });
    await bird.webhooks.delete(endpoint.id);
  });

  it('pauses on 410; a paused endpoint gets nothing, and after re-enabling a replay delivers what it missed', async () => {
    receiver.script('/gone', [410, 200]);
    const endpoint = await create('/gone');
    await emit();
    await eventually(
      async () =>
        ((await bird.webhooks.get(endpoint.id)) as unknown as Endpoint).status === 'paused',
    );
    expect(receiver.at('/gone')).toHaveLength(1);
    const firstId = receiver.at('/gone')[0].headers['webhook-id'];
    await emit();
    await emit();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at('/gone')).toHaveLength(1);

    const whilePaused = await api('POST', `/v1/webhooks/${endpoint.id}/replay`, {});
    expect(whilePaused.status).toBe(409);
    await bird.webhooks.update(endpoint.id, { status: 'active' });
    const replay = await api<{ queued: number }>('POST', `/v1/webhooks/${endpoint.id}/replay`, {});
    expect(replay.status).toBe(202);
    expect(replay.body.queued).toBe(3);
    await eventually(() => receiver.at('/gone').length === 4);
    const replayed = receiver.at('/gone').slice(1);
    expect(new Set(replayed.map((request) => request.headers['webhook-id'])).size).toBe(3);
    expect(replayed.map((request) => request.headers['webhook-id'])).not.toContain(firstId);
    // msg_, the creation time (ms, 12 hex digits) then 20 random ones: later ids sort later.
    for (const id of [firstId, ...replayed.map((request) => request.headers['webhook-id'])])
      expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    for (const { headers } of replayed)
      expect(String(headers['webhook-id']).slice(4, 16) > String(firstId).slice(4, 16)).toBe(true);
    const again = await api<{ queued: number }>('POST', `/v1/webhooks/${endpoint.id}/replay`, {});
    expect(again.body.queued).toBe(0);
    await bird.webhooks.delete(endpoint.id);
  });

  it('marks an endpoint degraded after 3 failures in a row and active again on a success', async () => {
    receiver.script('/shaky', [500, 500, 500, 200]);
    const endpoint = await create('/shaky');
    const statuses = new Set<string>();
    await emit();
    await eventually(async () => {
      statuses.add(((await bird.webhooks.get(endpoint.id)) as unknown as Endpoint).status);
      return receiver.at('/shaky').length === 4;
    });
    await eventually(
      async () =>
        ((await bird.webhooks.get(endpoint.id)) as unknown as Endpoint).status === 'active',
    );
    const { rows } = await platform.db.query<{ status_reason: string | null }>(
      'SELECT status_reason FROM webhooks.endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(rows[0].status_reason).toBeNull();
    // The third failure and the success are recorded in separate transactions: the state between
    // them is degraded, which the reads above may or may not catch; the attempts say it for sure.
    const attempts = (await bird.webhooks.attempts(endpoint.id)).data;
    expect(attempts.map((attempt) => attempt.status)).toEqual([
      'delivered',
      'failed',
      'failed',
      'failed',
    ]);
    expect([...statuses].every((status) => ['active', 'degraded'].includes(status))).toBe(true);
    await bird.webhooks.delete(endpoint.id);
  });

  it("waits as long as a 429's Retry-After asks before trying again", async () => {
    receiver.script('/busy', [429, 200]);
    const endpoint = await create('/busy');
    // The schedule says 100 ms; the receiver's 429 carries Retry-After: 1.
    const times: number[] = [];
    const before = receiver.at('/busy').length;
    await emit();
    await eventually(() => receiver.at('/busy').length === before + 2);
    for (const request of receiver.at('/busy'))
      times.push(Number(request.headers['webhook-timestamp']));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1);
    await bird.webhooks.delete(endpoint.id);
  });

  it("holds the endpoint's other deliveries back for a Retry-After without spending their attempts", async () => {
    receiver.script('/held', [429, 200]);
    const endpoint = await create('/held');
    await emit();
    await eventually(() => receiver.at('/held').length === 1);
    const refusedAt = receiver.at('/held')[0].at;
    await emit();
    await eventually(() => receiver.at('/held').length === 3);
    const [, ...later] = receiver.at('/held');
    for (const request of later) expect(request.at - refusedAt).toBeGreaterThanOrEqual(900);
    let attempts: Array<{ status: string; event_id?: string | null }> = [];
    await eventually(async () => {
      attempts = (await bird.webhooks.attempts(endpoint.id)).data;
      return attempts.length === 3;
    });
    // The first event: refused, then delivered; the second: held back, then delivered once.
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([
      'delivered',
      'delivered',
      'failed',
    ]);
    expect(new Set(attempts.map((attempt) => attempt.event_id)).size).toBe(2);
    await bird.webhooks.delete(endpoint.id);
  });

  it('stops every delivery, pending retries included, when the endpoint is deleted', async () => {
    receiver.script('/deleted', [500]);
    const endpoint = await create('/deleted');
    await emit();
    await eventually(() => receiver.at('/deleted').length >= 1);
    await bird.webhooks.delete(endpoint.id);
    const seen = receiver.at('/deleted').length;
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.at('/deleted').length).toBeLessThanOrEqual(seen + 1);
    const { rows } = await platform.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM webhooks.jobs WHERE payload->>'delivery_id' IN (SELECT id FROM webhooks.deliveries WHERE endpoint_id = $1)",
      [endpoint.id],
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  it('bounds the attempts list by before and after, newest first', async () => {
    receiver.script('/bounded', [200]);
    const endpoint = await create('/bounded');
    await emit();
    // Bounded by the recorded attempt itself: the receiver's clock reading, taken when the request
    // came, can fall before the attempt's own time under load (a delivery sent again).
    let first: Array<{ attempted_at: string }> = [];
    await eventually(async () => {
      first = (await bird.webhooks.attempts(endpoint.id)).data;
      return first.length === 1;
    });
    const middle = new Date(new Date(first[0].attempted_at).getTime() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await emit();
    let all: Array<{ attempted_at: string }> = [];
    await eventually(async () => {
      all = (await bird.webhooks.attempts(endpoint.id)).data;
      return all.length === 2;
    });
    expect(all[0].attempted_at > all[1].attempted_at).toBe(true);
    expect((await bird.webhooks.attempts(endpoint.id, { before: middle })).data).toEqual([all[1]]);
    expect((await bird.webhooks.attempts(endpoint.id, { after: middle })).data).toEqual([all[0]]);
    expect((await bird.webhooks.attempts(endpoint.id, { limit: 1 })).data).toEqual([all[0]]);
    const bad = await api('GET', `/v1/webhooks/${endpoint.id}/attempts?before=yesterday`);
    expect(bad.status).toBe(422);
    await bird.webhooks.delete(endpoint.id);
  });

  it('answers a test synchronously without recording an attempt, even when paused', async () => {
    receiver.script('/tested', [204]);
    const endpoint = await create('/tested');
    await bird.webhooks.update(endpoint.id, { status: 'paused' });
    const result = await bird.webhooks.test(endpoint.id, { event_type: 'email.delivered' });
    expect(result).toMatchObject({ status: 'delivered', response_status_code: 204 });
    const [request] = receiver.at('/tested');
    const event = bird.webhooks.unwrap(request.body, request.headers as Record<string, string>, {
      secret: endpoint.secret,
    }) as unknown as { type: string };
    expect(event.type).toBe('email.delivered');
    expect((await bird.webhooks.attempts(endpoint.id)).data).toEqual([]);
    const unknown = await api('POST', `/v1/webhooks/${endpoint.id}/test`, {
      event_type: 'nope.nothing',
    });
    expect(unknown.status).toBe(422);
    await bird.webhooks.delete(endpoint.id);
  });

  it("keeps every workspace's endpoints, attempts and events to itself", async () => {
    const endpoint = await create('/private');
    const other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    const theirs = (method: string, path: string, body?: unknown) =>
      call(platform.base, method, path, { token: other.api_key.secret, body });
    expect((await theirs('GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(404);
    expect((await theirs('GET', `/v1/webhooks/${endpoint.id}/attempts`)).status).toBe(404);
    expect((await theirs('DELETE', `/v1/webhooks/${endpoint.id}`)).status).toBe(404);
    expect(((await theirs('GET', '/v1/webhooks')).body as { data: unknown[] }).data).toEqual([]);
    // Their own events never reach this workspace's endpoint.
    await theirs('POST', '/v1/email/suppressions', { email: 'theirs@example.test' });
    await emit();
    await eventually(() => receiver.at('/private').length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver.at('/private').map((request) => JSON.parse(request.body).data.email),
    ).not.toContain('theirs@example.test');
    // A workspace without endpoints has nothing to deliver or replay: its events are not kept.
    const kept = await platform.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM webhooks.events WHERE workspace_id = $1',
      [other.workspace.id],
    );
    expect(kept.rows[0].n).toBe('0');
    await bird.webhooks.delete(endpoint.id);
  });
});

/** Without WEBHOOKS_ALLOW_PRIVATE_URLS: only public HTTPS targets, checked at create and at delivery. */
describe('webhook targets on private addresses', () => {
  let platform: TestPlatform;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });

  beforeAll(async () => {
    dns = await startDnsServer();
    platform = await startTestPlatform({
      DNS_SERVERS: dns.address,
      WEBHOOKS_RETRY_SCHEDULE: '100ms',
      RATE_LIMITS: 'read=100000,api_list=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
  });

  afterAll(async () => {
    await platform?.stop();
    await dns?.stop();
  });

  it('refuses http, loopback, private and link-local targets at create with 422 naming url', async () => {
    dns.set('intranet.acme.test', [{ type: 'A', address: '10.1.2.3' }]);
    for (const url of [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://169.254.169.254/latest',
      'https://[::1]/in',
      'https://intranet.acme.test/in',
    ]) {
      const created = await api('POST', '/v1/webhooks', { url, events: ['email.delivered'] });
      expect([url, created.status]).toEqual([url, 422]);
      expect(created.body).toMatchObject({ error: { details: [{ param: 'url' }] } });
    }
  });

  it('refuses at delivery a name that resolves to a private address since it was saved (DNS rebinding)', async () => {
    dns.set('hooks.rebind.test', [{ type: 'A', address: '93.184.216.34' }]);
    const created = await api<Endpoint>('POST', '/v1/webhooks', {
      url: 'https://hooks.rebind.test/in',
      events: ['email_suppression.created'],
    });
    expect(created.status).toBe(201);
    dns.set('hooks.rebind.test', [{ type: 'A', address: '127.0.0.1' }]);
    await api('POST', '/v1/email/suppressions', { email: 'rebind@example.test' });
    let attempts: Array<{ status: string; response_status_code: number | null; error?: string }> =
      [];
    await eventually(async () => {
      attempts = (
        await api<{ data: typeof attempts }>('GET', `/v1/webhooks/${created.body.id}/attempts`)
      ).body.data;
      return attempts.length >= 1;
    });
    // The attempt fails with the reason, listed with it.
    expect(attempts[0]).toMatchObject({
      status: 'failed',
      response_status_code: null,
      error: expect.stringMatching(/private address/),
    });
  });
});

/**
 * One workspace's receiver stops answering while a burst of its deliveries is queued: the
 * deliveries its window cannot take soon go back to the queue, so the slots of the process
 * (WEBHOOKS_CONCURRENCY, here 20) stay free for other endpoints.
 */
describe('a receiver that stops answering', () => {
  let platform: TestPlatform;
  let receiver: Server;
  let url: string;
  const hung: Array<{ destroy(): void }> = [];
  const hungDeleted: Array<{ destroy(): void }> = [];
  const answered: Array<{ at: number; body: string }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      if (req.url === '/hang' || req.url === '/hang-deleted') {
        (req.url === '/hang' ? hung : hungDeleted).push({ destroy: () => req.socket.destroy() });
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        answered.push({ at: Date.now(), body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    platform = await startTestPlatform({
      WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOKS_CONCURRENCY: '20',
      WEBHOOKS_TIMEOUT_MS: '1000',
      // A failed attempt is not tried again during the test: only sent-away deliveries return.
      WEBHOOKS_RETRY_SCHEDULE: '1h',
      RATE_LIMITS: 'read=100000,api_list=100000,write=100000',
    });
  });

  afterAll(async () => {
    await platform?.stop();
    for (const request of [...hung, ...hungDeleted]) request.destroy();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('sends nothing to an endpoint deleted while its deliveries waited for their turn', async () => {
    const gone = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Gone' });
    const as = (method: string, path: string, body?: unknown) =>
      call<Endpoint>(platform.base, method, path, { token: gone.api_key.secret, body });
    const endpoint = await as('POST', '/v1/webhooks', {
      url: `${url}/hang-deleted`,
      events: ['email_suppression.created'],
    });
    for (let n = 0; n < 20; n++)
      await as('POST', '/v1/email/suppressions', { email: `gone${n}@example.test` });
    await eventually(() => hungDeleted.length >= 4);
    expect((await as('DELETE', `/v1/webhooks/${endpoint.body.id}`)).status).toBe(204);
    const seen = hungDeleted.length;
    // The window in flight times out after a second; what waited behind it must not follow.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(hungDeleted.length).toBe(seen);
  });

  it("does not hold another workspace's deliveries behind it", async () => {
    const [stuck, other] = await Promise.all([
      createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Stuck' }),
      createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' }),
    ]);
    const as = (workspace: CreatedWorkspace) => (method: string, path: string, body?: unknown) =>
      call<Endpoint>(platform.base, method, path, { token: workspace.api_key.secret, body });
    const events = ['email_suppression.created'];
    await as(stuck)('POST', '/v1/webhooks', { url: `${url}/hang`, events });
    await as(other)('POST', '/v1/webhooks', { url: `${url}/other`, events });
    for (let n = 0; n < 60; n++)
      await as(stuck)('POST', '/v1/email/suppressions', { email: `burst${n}@example.test` });
    // The stuck receiver's first window is in flight, the rest of the slots queue behind it.
    await eventually(() => hung.length >= 8);
    const emittedAt = Date.now();
    await as(other)('POST', '/v1/email/suppressions', { email: 'other@example.test' });
    await eventually(() => answered.length === 1, 20_000);
    // Before, it waited for about 60 attempts of one second, one at a time.
    expect(answered[0].at - emittedAt).toBeLessThan(5_000);
    expect(answered[0].body).toContain('other@example.test');
    // Sent-away deliveries are not attempts: each attempt recorded is a request the receiver got.
    const stuckEndpoint = (await as(stuck)('GET', '/v1/webhooks')).body as unknown as {
      data: Endpoint[];
    };
    await eventually(async () => {
      const attempts = await as(stuck)('GET', `/v1/webhooks/${stuckEndpoint.data[0].id}/attempts`);
      const recorded = (attempts.body as unknown as { data: Array<{ status: string }> }).data;
      return recorded.length > 0 && recorded.every((attempt) => attempt.status === 'failed');
    });
    const { rows } = await platform.db.query<{ attempts: number }>(
      `SELECT count(*)::int AS attempts FROM webhooks.attempts a
       JOIN webhooks.endpoints e ON e.id = a.endpoint_id WHERE e.url LIKE '%/hang'`,
    );
    expect(rows[0].attempts).toBeLessThanOrEqual(hung.length);
    const { rows: pending } = await platform.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhooks.deliveries d
       JOIN webhooks.endpoints e ON e.id = d.endpoint_id
       WHERE e.url LIKE '%/hang' AND d.status = 'pending'`,
    );
    // Nothing given up: every delivery of the stuck endpoint is still to be made.
    expect(pending[0].n).toBe(60);
  });
});
