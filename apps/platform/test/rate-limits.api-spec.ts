import { BirdClient, BirdRateLimitError } from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
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

  it('counts per organization: another organization keeps its own quota', async () => {
    const other = await createWorkspace(base, ADMIN_TOKEN, { name: 'Unaffected' });
    expect((await call(base, 'GET', '/v1/workspace', { token: other.api_key.secret })).status).toBe(
      200,
    );
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
