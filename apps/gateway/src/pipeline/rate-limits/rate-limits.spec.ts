import { loadConfig } from '@switchboard/platform';
import { parseItem, parseList, serializeList } from 'structured-headers';
import { rateLimitExceededHeaders, rateLimitHeaders } from './rate-limit-headers';
import { clientNetwork, RateLimitQuotas, rateLimitKey } from './rate-limit-quotas';
import { DEFAULT_RATE_LIMITS, parseRateLimits, rateLimitEnv } from './rate-limit.config';
import { RateLimitEnforcer } from './rate-limit.providers';
import { RateLimiter } from './rate-limiter';
import { RateLimitsRepository } from './rate-limits.repository';

describe('rate-limit headers', () => {
  it('serialises RateLimit-Policy and RateLimit as structured-field lists', () => {
    const headers = rateLimitHeaders('api_list', {
      quota: 150,
      remaining: 149,
      resetSeconds: 42,
      windowSeconds: 60,
    });
    expect(headers).toEqual({
      'ratelimit-policy': '"api_list";q=150;w=60',
      ratelimit: '"api_list";r=149;t=42',
    });

    const [policy] = parseList(headers['ratelimit-policy']);
    expect(policy[0]).toBe('api_list');
    expect(Object.fromEntries(policy[1])).toEqual({ q: 150, w: 60 });
    const [limit, params] = parseItem(headers.ratelimit);
    expect(limit).toBe('api_list');
    expect(params.get('r')).toBe(149);
    expect(params.get('t')).toBe(42);
  });

  it('never sends a negative remaining', () => {
    const headers = rateLimitHeaders('write', {
      quota: 60,
      remaining: -3,
      resetSeconds: 5,
      windowSeconds: 60,
    });
    expect(parseList(headers.ratelimit)[0][1].get('r')).toBe(0);
  });

  it('adds Retry-After equal to t on a 429', () => {
    const headers = rateLimitExceededHeaders('email_send', {
      quota: 10,
      remaining: 0,
      resetSeconds: 35,
      windowSeconds: 60,
    });
    expect(headers.ratelimit).toBe('"email_send";r=0;t=35');
    expect(headers['ratelimit-policy']).toBe('"email_send";q=10;w=60');
    expect(parseItem(headers['retry-after'])[0]).toBe(35);
    expect(Number(headers['retry-after'])).toBeGreaterThanOrEqual(
      parseList(headers.ratelimit)[0][1].get('t') as number,
    );
  });
});

describe('RATE_LIMITS', () => {
  it('keeps every default when unset or empty', () => {
    expect(parseRateLimits(undefined)).toEqual({
      enabled: true,
      defaults: DEFAULT_RATE_LIMITS,
      windowSeconds: 60,
    });
    expect(parseRateLimits('  ')).toEqual({
      enabled: true,
      defaults: DEFAULT_RATE_LIMITS,
      windowSeconds: 60,
    });
    expect(DEFAULT_RATE_LIMITS).toEqual({
      realtime_publish: 6000,
      api_list: 150,
      read: 500,
      write: 60,
      email_send: 10,
      email_batch: 5,
      sms_send: 10,
      sms_batch: 5,
      whatsapp_send: 10,
      admin: 600,
      auth: 60,
      docs: 600,
      tracking: 60_000,
      unsubscribe: 120,
    });
  });

  it('replaces the groups it names', () => {
    const config = parseRateLimits('api_list=300, email_send = 20,');
    expect(config.defaults).toEqual({ ...DEFAULT_RATE_LIMITS, api_list: 300, email_send: 20 });
    expect(config.enabled).toBe(true);
  });

  it('turns limiting off with "off"', () => {
    expect(parseRateLimits('off').enabled).toBe(false);
  });

  it('rejects unknown groups, bad entries, duplicates and huge quotas', () => {
    expect(() => parseRateLimits('lists=3')).toThrow('unknown group "lists"');
    expect(() => parseRateLimits('read=-1')).toThrow('invalid entry "read=-1"');
    expect(() => parseRateLimits('read')).toThrow('invalid entry');
    expect(() => parseRateLimits('read=1,read=2')).toThrow('twice');
    expect(() => parseRateLimits('read=10000000000')).toThrow('out of range');
  });

  it('loads through the env schema with one line naming the variable', () => {
    expect(loadConfig(rateLimitEnv, { RATE_LIMITS: 'write=90' }).RATE_LIMITS.defaults.write).toBe(
      90,
    );
    expect(loadConfig(rateLimitEnv, {}).RATE_LIMITS.defaults).toEqual(DEFAULT_RATE_LIMITS);
    expect(loadConfig(rateLimitEnv, {}).RATE_LIMIT_OVERRIDES_TTL_MS).toBe(10_000);
    expect(() => loadConfig(rateLimitEnv, { RATE_LIMITS: 'nope=1' })).toThrow(
      'Invalid configuration: RATE_LIMITS names an unknown group "nope"',
    );
  });
});

describe('rateLimitKey', () => {
  it('counts per organization when the caller has one, else per client address', () => {
    expect(rateLimitKey('api_list', { organizationId: 'org_1', clientIp: '198.51.100.4' })).toBe(
      'org:org_1:api_list',
    );
    expect(rateLimitKey('docs', { clientIp: '198.51.100.4' })).toBe('ip:198.51.100.4:docs');
    expect(rateLimitKey('auth', { clientIp: '::ffff:198.51.100.4' })).toBe('ip:198.51.100.4:auth');
  });

  it('counts IPv6 clients by their /64', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('RateLimit header fast path', () => {
  it('equals the library serialising the whole list, for any remaining and reset values', () => {
    for (const group of ['api_list', 'read', 'email_send']) {
      for (const [remaining, reset] of [
        [0, 1],
        [7, 60],
        [999_999_999, 42],
        [123, 0],
      ]) {
        const expected = serializeList([
          [
            group,
            new Map([
              ['r', remaining],
              ['t', reset],
            ]),
          ],
        ]);
        expect(
          rateLimitHeaders(group, {
            quota: 1_000_000_000,
            remaining,
            resetSeconds: reset,
            windowSeconds: 60,
          }).ratelimit,
        ).toBe(expected);
      }
    }
  });
});

describe('RateLimitEnforcer', () => {
  /** A limiter on an in-memory stand-in for gateway.rate_limit_windows (the lease upsert's rule). */
  function enforcerFor(rateLimits: string, now: () => number) {
    const windows = new Map<string, number>();
    const db = {
      query: (sql: string, params: unknown[] = []) => {
        if (sql.includes('rate_limit_overrides')) return Promise.resolve([]);
        const [key, windowStart, quota, block] = params as [string, number, number, number];
        const used = windows.get(`${key}@${windowStart}`) ?? 0;
        const granted = Math.max(0, Math.min(block, quota - used));
        windows.set(`${key}@${windowStart}`, used + granted);
        return Promise.resolve([{ used: used + granted, last_grant: granted }]);
      },
    };
    const config = parseRateLimits(rateLimits);
    const repository = new RateLimitsRepository(db);
    const limiter = new RateLimiter(repository, { now, purgeIntervalMs: 0 });
    return new RateLimitEnforcer(config, limiter, new RateLimitQuotas(repository, config, { now }));
  }

  it('sends the headers the header functions build, for every request of a key', async () => {
    const now = () => 1_699_999_998_000; // 42 s before the minute ends
    const enforcer = enforcerFor('read=3', now);
    const subject = { organizationId: 'org_a', clientIp: '' };
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await enforcer.check('read', subject));
    const result = { quota: 3, resetSeconds: 42, windowSeconds: 60 };
    expect(seen.map((decision) => decision?.headers)).toEqual([
      rateLimitHeaders('read', { ...result, remaining: 2 }),
      rateLimitHeaders('read', { ...result, remaining: 1 }),
      rateLimitHeaders('read', { ...result, remaining: 0 }),
      rateLimitExceededHeaders('read', { ...result, remaining: 0 }),
    ]);
    expect(seen.map((decision) => decision?.allowed)).toEqual([true, true, true, false]);
  });

  it('keeps one count per organization and group, and per client network without one', async () => {
    const now = () => 1_699_999_998_000;
    const enforcer = enforcerFor('read=5,docs=5', now);
    const remaining = async (
      group: 'read' | 'docs',
      subject: { organizationId?: string; clientIp: string },
    ) => (await enforcer.check(group, subject))?.result.remaining;
    expect(await remaining('read', { organizationId: 'org_a', clientIp: '' })).toBe(4);
    expect(await remaining('read', { organizationId: 'org_a', clientIp: '' })).toBe(3);
    expect(await remaining('docs', { organizationId: 'org_a', clientIp: '' })).toBe(4);
    expect(await remaining('read', { organizationId: 'org_b', clientIp: '' })).toBe(4);
    // Two addresses of one IPv6 /64 share their count.
    expect(await remaining('docs', { clientIp: '2001:db8:1:2::1' })).toBe(4);
    expect(await remaining('docs', { clientIp: '2001:db8:1:2::99' })).toBe(3);
    expect(await remaining('docs', { clientIp: '2001:db8:1:3::1' })).toBe(4);
  });
});
