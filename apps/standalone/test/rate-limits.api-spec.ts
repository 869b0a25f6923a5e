import { BirdClient, BirdRateLimitError } from '@messagebird/sdk';
import { call, createWorkspace, earlyInARateLimitWindow } from '@switchboard/testing';
import type { Client } from 'pg';
import { parseList } from 'structured-headers';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const ADMIN_TOKEN = TEST_ADMIN_TOKEN;

/** Reads `"<group>";k=v;...` into its group name and parameters, as a structured-field parser does. */
function parsed(header: string | null): { group: string; params: Record<string, unknown> } {
  const [[item, params]] = parseList(header ?? '') as Array<[unknown, Map<string, unknown>]>;
  return { group: String(item), params: Object.fromEntries(params) };
}

describe('rate limits through the gateway', () => {
  let platform: TestPlatform;
  let db: Client;
  let base: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    base = platform.base;
    db = platform.db;
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('advertises the policy and what remains as RFC 9651 structured fields on every limited response', async () => {
    const acme = await createWorkspace(base, ADMIN_TOKEN, { name: 'Headers' });
    await earlyInARateLimitWindow();
    const first = await call(base, 'GET', '/v1/workspace', { token: acme.api_key.secret });
    const second = await call(base, 'GET', '/v1/workspace', { token: acme.api_key.secret });
    expect(parsed(first.headers.get('ratelimit-policy'))).toEqual({
      group: 'read',
      params: { q: 500, w: 60 },
    });
    const [a, b] = [
      parsed(first.headers.get('ratelimit')),
      parsed(second.headers.get('ratelimit')),
    ];
    expect(a.group).toBe('read');
    expect(b.params.r).toBe((a.params.r as number) - 1);
    expect(b.params.t).toBeGreaterThanOrEqual(1);
    expect(b.params.t).toBeLessThanOrEqual(60);
    const list = await call(base, 'GET', '/v1/realtime/apps', { token: acme.api_key.secret });
    expect(parsed(list.headers.get('ratelimit-policy'))).toEqual({
      group: 'api_list',
      params: { q: 150, w: 60 },
    });
    expect((await call(base, 'GET', '/healthz')).headers.get('ratelimit')).toBeNull();
  });

  it('answers 429 rate_limit_error with Retry-After once the organization spent its quota', async () => {
    const limited = await createWorkspace(base, ADMIN_TOKEN, { name: 'Limited' });
    await db.query(
      "INSERT INTO gateway.rate_limit_overrides (organization_id, policy, quota) VALUES ($1, 'read', 3)",
      [limited.organization.id],
    );
    await earlyInARateLimitWindow();
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await call(base, 'GET', '/v1/workspace', { token: limited.api_key.secret })).status,
      );
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await call(base, 'GET', '/v1/workspace', { token: limited.api_key.secret });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { type: 'rate_limit_error', code: 'E07001' } });
    const { params } = parsed(refused.headers.get('ratelimit'));
    expect(params.r).toBe(0);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(params.t as number);

    const bird = new BirdClient({ apiKey: limited.api_key.secret, baseUrl: base, maxRetries: 0 });
    const error = await bird.workspace.get().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BirdRateLimitError);
    expect((error as BirdRateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
  });

  it('counts per organization: every key and workspace of an organization spends one quota, another organization keeps its own', async () => {
    const first = await createWorkspace(base, ADMIN_TOKEN, { name: 'Shared quota' });
    const sibling = await createWorkspace(base, ADMIN_TOKEN, { name: 'Shared quota, second' });
    const other = await createWorkspace(base, ADMIN_TOKEN, { name: 'Own quota' });
    // The operator API makes one organization per workspace: move the second workspace into the
    // first one's organization before any of its keys is used (and so cached).
    await db.query('UPDATE gateway.workspaces SET organization_id = $1 WHERE id = $2', [
      first.organization.id,
      sibling.workspace.id,
    ]);
    const secondKey = await call<{ secret: string }>(
      base,
      'POST',
      `/admin/v1/workspaces/${first.workspace.id}/api-keys`,
      { token: ADMIN_TOKEN, body: { role: 'read' } },
    );
    expect(secondKey.status).toBe(201);
    // The same small quota for both organizations, so a counter shared across organizations
    // refuses the other one while a per-key or per-workspace counter never reaches it.
    await db.query(
      "INSERT INTO gateway.rate_limit_overrides (organization_id, policy, quota) VALUES ($1, 'read', 4), ($2, 'read', 4)",
      [first.organization.id, other.organization.id],
    );
    const read = async (token: string) =>
      (await call(base, 'GET', '/v1/workspace', { token })).status;
    const keys = {
      first: first.api_key.secret,
      secondKey: secondKey.body.secret,
      sibling: sibling.api_key.secret,
      other: other.api_key.secret,
    };

    // Four requests spread over two keys of one workspace and a second workspace: each of them
    // used at most twice, the organization's quota of 4 spent.
    await earlyInARateLimitWindow();
    const spent = [];
    for (const key of ['first', 'sibling', 'secondKey', 'sibling'] as const)
      spent.push({ key, status: await read(keys[key]) });
    expect(spent.map((each) => each.status)).toEqual([200, 200, 200, 200]);
    const refused = [];
    for (const key of ['first', 'secondKey', 'sibling'] as const)
      refused.push({ key, status: await read(keys[key]) });
    expect(refused).toEqual([
      { key: 'first', status: 429 },
      { key: 'secondKey', status: 429 },
      { key: 'sibling', status: 429 },
    ]);

    // The other organization has its whole quota, counted down from 4 and then refused.
    const others = [];
    for (let i = 0; i < 5; i++) {
      const response = await call(base, 'GET', '/v1/workspace', { token: keys.other });
      others.push({
        status: response.status,
        r: parsed(response.headers.get('ratelimit')).params.r,
      });
    }
    expect(others).toEqual([
      { status: 200, r: 3 },
      { status: 200, r: 2 },
      { status: 200, r: 1 },
      { status: 200, r: 0 },
      { status: 429, r: 0 },
    ]);
  });
});

describe('rate limits of anonymous routes', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'docs=2' });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('counts by the connection address, not by a forged X-Forwarded-For', async () => {
    await earlyInARateLimitWindow();
    const statuses = [];
    for (let i = 1; i <= 3; i++) {
      statuses.push(
        (
          await call(platform.base, 'GET', '/v1/docs/search?q=errors', {
            headers: { 'x-forwarded-for': `203.0.113.${i}` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
