import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { RunningPostgres } from '@switchboard/testing';
import { startTestPostgres } from '@switchboard/testing';
import { DataSource } from 'typeorm';
import { CreateIdentity1763800000000 } from '../../database/migrations/1763800000000-create-identity';
import { CreateRateLimits1763900000000 } from '../../database/migrations/1763900000000-create-rate-limits';
import { RateLimitQuotas, rateLimitKey } from './rate-limit-quotas';
import { DEFAULT_RATE_LIMITS, parseRateLimits } from './rate-limit.config';
import { RateLimitEnforcer, rateLimitProviders } from './rate-limit.providers';
import { RateLimiter } from './rate-limiter';
import type { RateLimitResult } from './rate-limiter';
import { RateLimitsRepository } from './rate-limits.repository';
import type { RateLimitQueryRunner } from './rate-limits.repository';

const WINDOW_MS = 60_000;

/** A test clock, starting 18 s into a window, that only moves when told to. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let time = 29_000_000 * WINDOW_MS + 18_000;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** Counts the limiter's database round trips. */
function counting(db: RateLimitQueryRunner): RateLimitQueryRunner & { calls: number } {
  const wrapper = {
    calls: 0,
    query(sql: string, params?: unknown[]) {
      wrapper.calls += 1;
      return db.query(sql, params);
    },
  };
  return wrapper;
}

/** Fires `concurrency` requests at a time at one key until a whole wave is refused. */
async function hammer(
  limiter: RateLimiter,
  key: string,
  quota: number,
  concurrency: number,
): Promise<{ admitted: number; results: RateLimitResult[] }> {
  let admitted = 0;
  const results: RateLimitResult[] = [];
  for (let wave = 0; wave < 10_000; wave += 1) {
    const batch = await Promise.all(
      Array.from({ length: concurrency }, () => limiter.consume(key, 'api_list', quota)),
    );
    results.push(...batch);
    const allowed = batch.filter((result) => result.allowed).length;
    admitted += allowed;
    if (allowed === 0) return { admitted, results };
  }
  throw new Error('the limiter never refused');
}

describe('RateLimiter against PostgreSQL', () => {
  let postgres: RunningPostgres;
  let replicaA: DataSource;
  let replicaB: DataSource;
  const limiters: RateLimiter[] = [];

  const dataSource = (url: string): DataSource =>
    new DataSource({ type: 'postgres', url, extra: { max: 4 } });
  const limiter = (db: RateLimitQueryRunner, now: () => number): RateLimiter => {
    const created = new RateLimiter(new RateLimitsRepository(db), { now, purgeIntervalMs: 0 });
    limiters.push(created);
    return created;
  };

  beforeAll(async () => {
    postgres = await startTestPostgres();
    replicaA = await dataSource(postgres.url).initialize();
    replicaB = await dataSource(postgres.url).initialize();
    await replicaA.query('CREATE SCHEMA gateway');
    const runner = replicaA.createQueryRunner();
    try {
      await new CreateIdentity1763800000000().up(runner);
      await new CreateRateLimits1763900000000().up(runner);
    } finally {
      await runner.release();
    }
    await replicaA.query(
      `INSERT INTO gateway.organizations (id, name) VALUES ('org_a', 'A'), ('org_b', 'B')`,
    );
  });

  afterAll(async () => {
    for (const created of limiters) created.close();
    await replicaA?.destroy();
    await replicaB?.destroy();
    await postgres?.stop();
  });

  it('admits exactly the quota, then refuses with remaining 0, without a round trip per request', async () => {
    const clock = manualClock();
    const db = counting(replicaA);
    const one = limiter(db, clock.now);
    const key = rateLimitKey('api_list', { organizationId: 'org_single', clientIp: '127.0.0.1' });
    const quota = DEFAULT_RATE_LIMITS.api_list;

    for (let n = 1; n <= quota; n += 1) {
      const result = await one.consume(key, 'api_list', quota);
      expect(result).toEqual({
        allowed: true,
        quota,
        remaining: quota - n,
        resetSeconds: 42,
        windowSeconds: 60,
      });
    }
    const refused = await one.consume(key, 'api_list', quota);
    expect(refused).toEqual({
      allowed: false,
      quota,
      remaining: 0,
      resetSeconds: 42,
      windowSeconds: 60,
    });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);

    // Refusals after exhaustion are answered from memory.
    const tripsAtExhaustion = db.calls;
    for (let n = 0; n < 100; n += 1)
      expect((await one.consume(key, 'api_list', quota)).allowed).toBe(false);
    expect(db.calls).toBe(tripsAtExhaustion);
    // Leases of at most ceil(150 / 20) = 8 after a doubling start: about 20 round trips, not 150.
    expect(db.calls).toBeLessThanOrEqual(25);

    const [row] = await replicaA.query(
      'SELECT used FROM gateway.rate_limit_windows WHERE key = $1',
      [key],
    );
    expect(row.used).toBe(quota);
  });

  it('refuses at the last second of a window with resetSeconds 1', async () => {
    const clock = manualClock();
    clock.advance(60_000 - 18_000 - 1); // 1 ms before the window ends
    const one = limiter(replicaA, clock.now);
    const result = await one.consume('ip:10.0.0.9:auth', 'auth', 0);
    expect(result).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
  });

  it('two replicas hammering one key together admit no more than the quota', async () => {
    const quota = 500;
    const tolerance = Math.ceil(quota / 20);
    const clock = manualClock();
    const a = limiter(counting(replicaA), clock.now);
    const b = limiter(counting(replicaB), clock.now);
    const key = rateLimitKey('read', { organizationId: 'org_shared', clientIp: '127.0.0.1' });

    const [fromA, fromB] = await Promise.all([
      hammer(a, key, quota, 25),
      hammer(b, key, quota, 25),
    ]);
    const total = fromA.admitted + fromB.admitted;
    expect(total).toBeLessThanOrEqual(quota);
    expect(total).toBeGreaterThanOrEqual(quota - tolerance);
    // Both replicas really took part.
    expect(fromA.admitted).toBeGreaterThan(0);
    expect(fromB.admitted).toBeGreaterThan(0);
    for (const result of [...fromA.results, ...fromB.results]) {
      expect(result.remaining).toBeGreaterThanOrEqual(0);
      if (!result.allowed) expect(result.remaining).toBe(0);
    }
    const [row] = await replicaA.query(
      'SELECT used FROM gateway.rate_limit_windows WHERE key = $1',
      [key],
    );
    expect(row.used).toBeLessThanOrEqual(quota);
  });

  it('six limiters on two pools admit exactly the quota between them', async () => {
    const quota = 1000;
    const clock = manualClock();
    const all = [replicaA, replicaB, replicaA, replicaB, replicaA, replicaB].map((db) =>
      limiter(db, clock.now),
    );
    const key = rateLimitKey('admin', { organizationId: 'org_six', clientIp: '127.0.0.1' });
    const admitted = (await Promise.all(all.map((one) => hammer(one, key, quota, 20)))).map(
      (run) => run.admitted,
    );
    expect(admitted.reduce((sum, n) => sum + n, 0)).toBe(quota);
    const [row] = await replicaA.query(
      'SELECT used FROM gateway.rate_limit_windows WHERE key = $1',
      [key],
    );
    expect(row.used).toBe(quota);
  });

  it('leaves at most one block per other replica unspent when that replica goes quiet', async () => {
    const quota = 200;
    const tolerance = Math.ceil(quota / 20);
    const clock = manualClock();
    const a = limiter(replicaA, clock.now);
    const b = limiter(replicaB, clock.now);
    const key = rateLimitKey('api_list', { organizationId: 'org_quiet', clientIp: '127.0.0.1' });

    // Replica A serves a burst, growing its lease, then gets no more traffic.
    const burst = await Promise.all(
      Array.from({ length: 40 }, () => a.consume(key, 'api_list', quota)),
    );
    const fromA = burst.filter((result) => result.allowed).length;
    expect(fromA).toBe(40);
    const fromB = await hammer(b, key, quota, 10);
    const total = fromA + fromB.admitted;
    expect(total).toBeLessThanOrEqual(quota);
    expect(total).toBeGreaterThanOrEqual(quota - tolerance);
  });

  it('admits again in the next window and purges old windows', async () => {
    const clock = manualClock();
    const one = limiter(replicaA, clock.now);
    const key = rateLimitKey('email_batch', {
      organizationId: 'org_windows',
      clientIp: '127.0.0.1',
    });
    const quota = DEFAULT_RATE_LIMITS.email_batch;

    for (let n = 0; n < quota; n += 1)
      expect((await one.consume(key, 'email_batch', quota)).allowed).toBe(true);
    expect(await one.consume(key, 'email_batch', quota)).toMatchObject({
      allowed: false,
      remaining: 0,
      resetSeconds: 42,
    });

    clock.advance(42_000); // the first instant of the next window
    expect(await one.consume(key, 'email_batch', quota)).toEqual({
      allowed: true,
      quota,
      remaining: quota - 1,
      resetSeconds: 60,
      windowSeconds: 60,
    });
    clock.advance(30_000);
    expect(await one.consume(key, 'email_batch', quota)).toMatchObject({
      allowed: true,
      remaining: quota - 2,
      resetSeconds: 30,
    });

    const windows = async (): Promise<number> =>
      Number(
        (
          await replicaA.query(
            'SELECT count(*) AS n FROM gateway.rate_limit_windows WHERE key = $1',
            [key],
          )
        )[0].n,
      );
    expect(await windows()).toBe(2);
    clock.advance(2 * WINDOW_MS);
    await one.purge(); // now in window W+3: deletes window_start < W+1, the first window only
    expect(await windows()).toBe(1);
    clock.advance(WINDOW_MS);
    await one.purge(); // W+4: deletes < W+2
    expect(await windows()).toBe(0);
  });

  it('applies a per-organization override, re-read after the cache expires', async () => {
    const clock = manualClock();
    const one = limiter(replicaA, clock.now);
    const quotas = new RateLimitQuotas(
      new RateLimitsRepository(replicaA),
      parseRateLimits(undefined),
      {
        ttlMs: 10_000,
        now: clock.now,
      },
    );
    await replicaA.query(
      `INSERT INTO gateway.rate_limit_overrides (organization_id, policy, quota) VALUES ('org_a', 'write', 3)`,
    );

    expect(await quotas.quotaFor('org_a', 'write')).toBe(3);
    expect(await quotas.quotaFor('org_a', 'read')).toBe(500);
    expect(await quotas.quotaFor('org_b', 'write')).toBe(60);
    expect(await quotas.quotaFor(undefined, 'write')).toBe(60);

    const key = rateLimitKey('write', { organizationId: 'org_a', clientIp: '127.0.0.1' });
    const spend = async (): Promise<RateLimitResult> =>
      one.consume(key, 'write', await quotas.quotaFor('org_a', 'write'));
    for (let n = 1; n <= 3; n += 1)
      expect(await spend()).toMatchObject({ allowed: true, quota: 3, remaining: 3 - n });
    expect(await spend()).toMatchObject({ allowed: false, quota: 3, remaining: 0 });

    // Raised to 5: cached until the TTL passes, then served stale once while one read refreshes it.
    await replicaA.query(
      `UPDATE gateway.rate_limit_overrides SET quota = 5 WHERE organization_id = 'org_a' AND policy = 'write'`,
    );
    expect(await quotas.quotaFor('org_a', 'write')).toBe(3);
    clock.advance(10_000);
    expect(await quotas.quotaFor('org_a', 'write')).toBe(3);
    await quotas.refresh('org_a');
    expect(await quotas.quotaFor('org_a', 'write')).toBe(5);
    // The same window now has two more.
    expect(await spend()).toMatchObject({ allowed: true, quota: 5, remaining: 1 });
    expect(await spend()).toMatchObject({ allowed: true, quota: 5, remaining: 0 });
    expect(await spend()).toMatchObject({ allowed: false, quota: 5, remaining: 0 });

    // Lowered below what was used: refused at once, from memory.
    await replicaA.query(
      `UPDATE gateway.rate_limit_overrides SET quota = 2 WHERE organization_id = 'org_a' AND policy = 'write'`,
    );
    quotas.invalidate('org_a');
    expect(await spend()).toMatchObject({ allowed: false, quota: 2, remaining: 0 });

    // invalidate() forgets at once.
    await replicaA.query(
      `DELETE FROM gateway.rate_limit_overrides WHERE organization_id = 'org_a'`,
    );
    quotas.invalidate('org_a');
    expect(await quotas.quotaFor('org_a', 'write')).toBe(60);
  });

  it('enforces through RateLimitEnforcer with the headers to send', async () => {
    const clock = manualClock();
    const config = parseRateLimits('email_send=2');
    const quotas = new RateLimitQuotas(new RateLimitsRepository(replicaA), config, {
      now: clock.now,
    });
    const enforcer = new RateLimitEnforcer(config, limiter(replicaA, clock.now), quotas);
    const subject = { organizationId: 'org_b', clientIp: '192.0.2.1' };

    expect(await enforcer.check('none', subject)).toBeUndefined();
    expect((await enforcer.check('email_send', subject))?.headers).toEqual({
      'ratelimit-policy': '"email_send";q=2;w=60',
      ratelimit: '"email_send";r=1;t=42',
    });
    expect((await enforcer.check('email_send', subject))?.allowed).toBe(true);
    const refused = await enforcer.check('email_send', subject);
    expect(refused?.allowed).toBe(false);
    expect(refused?.headers).toEqual({
      'ratelimit-policy': '"email_send";q=2;w=60',
      ratelimit: '"email_send";r=0;t=42',
      'retry-after': '42',
    });
    // Unauthenticated routes count per client IP.
    expect((await enforcer.check('docs', { clientIp: '192.0.2.1' }))?.headers.ratelimit).toBe(
      '"docs";r=599;t=42',
    );

    const off = parseRateLimits('off');
    expect(
      await new RateLimitEnforcer(off, limiter(replicaA, clock.now), quotas).check('read', subject),
    ).toBeUndefined();
  });

  it('wires into Nest on the data source named gateway', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({
          name: 'gateway',
          type: 'postgres',
          url: postgres.url,
          extra: { max: 2 },
        }),
      ],
      providers: rateLimitProviders(parseRateLimits('read=2'), { overridesTtlMs: 5000 }),
    }).compile();
    try {
      const enforcer = moduleRef.get(RateLimitEnforcer);
      const subject = { organizationId: 'org_nest', clientIp: '192.0.2.7' };
      expect((await enforcer.check('read', subject))?.allowed).toBe(true);
      expect((await enforcer.check('read', subject))?.allowed).toBe(true);
      expect((await enforcer.check('read', subject))?.headers).toMatchObject({
        'ratelimit-policy': '"read";q=2;w=60',
        ratelimit: expect.stringMatching(/^"read";r=0;t=\d+$/),
      });
    } finally {
      await moduleRef.close();
    }
  });

  it('fails open, and says so, when the database is unreachable', async () => {
    const clock = manualClock();
    const errors: unknown[] = [];
    const broken: RateLimitQueryRunner = {
      query: () => Promise.reject(new Error('connection refused')),
    };
    const one = new RateLimiter(new RateLimitsRepository(broken), {
      now: clock.now,
      purgeIntervalMs: 0,
      onError: (error) => errors.push(error),
    });
    expect(await one.consume('org:x:write', 'write', 60)).toMatchObject({
      allowed: true,
      remaining: 59,
    });
    expect(await one.consume('org:x:write', 'write', 60)).toMatchObject({
      allowed: true,
      remaining: 58,
    });
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('org:x:write (write) failed');

    // A runner that resolves to something other than the rows (a bare pg Pool) is reported, not read as "exhausted".
    const wrong = { query: () => Promise.resolve({ rows: [] }) } as unknown as RateLimitQueryRunner;
    const misuse = new RateLimiter(new RateLimitsRepository(wrong), {
      now: clock.now,
      purgeIntervalMs: 0,
      onError: (error) => errors.push(error),
    });
    expect(await misuse.consume('org:y:write', 'write', 60)).toMatchObject({ allowed: true });
    expect(String((errors[1] as Error).cause)).toContain('must resolve to the rows');
  });
});
