import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';

/**
 * The one thing the repository needs from the database: `query` resolving to the result rows, as
 * a TypeORM DataSource's does (wrap a pg Pool as `{ query: (s, p) => pool.query(s, p).then((r) => r.rows) }`).
 */
export interface RateLimitQueryRunner {
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

/** A lease of quota: the shared counter after it, and how much of the block it granted. */
export interface Lease {
  used: number;
  granted: number;
}

/** An organization's quota for one policy (group), as stored. */
export interface RateLimitOverrideRow {
  policy: string;
  quota: number | string;
}

const LEASE_SQL = `
  INSERT INTO gateway.rate_limit_windows AS w (key, window_start, used, last_grant)
  VALUES ($1, $2, LEAST($3::int, $4::int), LEAST($3::int, $4::int))
  ON CONFLICT (key, window_start) DO UPDATE
    SET used = GREATEST(w.used, LEAST($3::int, w.used + $4::int)),
        last_grant = GREATEST(0, LEAST($4::int, $3::int - w.used))
  RETURNING used, last_grant`;

const PURGE_SQL = 'DELETE FROM gateway.rate_limit_windows WHERE window_start < $1';

const OVERRIDES_SQL =
  'SELECT policy, quota FROM gateway.rate_limit_overrides WHERE organization_id = $1';

/**
 * Named queries over gateway.rate_limit_windows (one shared counter per key and window) and
 * gateway.rate_limit_overrides, for `RateLimiter` and `RateLimitQuotas`.
 */
@Injectable()
export class RateLimitsRepository {
  constructor(@InjectDataSource('gateway') private readonly db: RateLimitQueryRunner) {}

  /**
   * Leases up to `block` of `key`'s quota in the window starting at `windowStart` (seconds) with
   * one atomic upsert that never lets the counter pass `quota`.
   */
  async lease(key: string, windowStart: number, quota: number, block: number): Promise<Lease> {
    const rows = await this.db.query(LEASE_SQL, [key, windowStart, quota, block]);
    const row = (Array.isArray(rows) ? rows[0] : undefined) as
      { used?: unknown; last_grant?: unknown } | undefined;
    const used = Number(row?.used);
    const granted = Number(row?.last_grant);
    if (!Number.isInteger(used) || !Number.isInteger(granted) || granted < 0) {
      throw new Error(
        'the lease query returned no row (the query runner must resolve to the rows)',
      );
    }
    return { used, granted };
  }

  /** Deletes the windows that started before `windowStart` (seconds). */
  async deleteWindowsBefore(windowStart: number): Promise<void> {
    await this.db.query(PURGE_SQL, [windowStart]);
  }

  async overridesOf(organizationId: string): Promise<RateLimitOverrideRow[]> {
    return (await this.db.query(OVERRIDES_SQL, [organizationId])) as RateLimitOverrideRow[];
  }
}
