import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { RateLimitGroup } from '../routes/route-policy';
import { rateLimitExceededHeaders, rateLimitHeaders } from './rate-limit-headers';
import { RateLimitQuotas, rateLimitKey } from './rate-limit-quotas';
import type { RateLimitConfig } from './rate-limit.config';
import { RateLimiter } from './rate-limiter';
import type { RateLimitResult } from './rate-limiter';

export const RATE_LIMIT_CONFIG = Symbol('RATE_LIMIT_CONFIG');

export interface RateLimitDecision {
  allowed: boolean;
  result: RateLimitResult;
  /** `RateLimit-Policy` and `RateLimit`, plus `Retry-After` when refused: set them on the reply. */
  headers: Record<string, string>;
}

/**
 * What a guard calls once the caller is known: spends one unit of the route's group for the
 * caller's organization (or client IP) and says which headers to send. `undefined` when the
 * route is not limited (`none`) or limiting is off: then no rate-limit headers are sent.
 */
@Injectable()
export class RateLimitEnforcer {
  constructor(
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
    private readonly limiter: RateLimiter,
    private readonly quotas: RateLimitQuotas,
  ) {}

  /**
   * Answers synchronously whenever this replica can (quota cached, lease in hand), which is
   * nearly every request; a promise only when the database must be asked first.
   */
  check(
    group: RateLimitGroup,
    subject: { organizationId?: string; clientIp: string },
  ): RateLimitDecision | undefined | Promise<RateLimitDecision | undefined> {
    if (group === 'none' || !this.config.enabled) return undefined;
    const key = rateLimitKey(group, subject);
    const quota = this.quotas.cachedQuotaFor(subject.organizationId, group);
    const result = quota === undefined ? undefined : this.limiter.tryConsume(key, quota);
    if (result) return decision(group, result);
    return this.quotas
      .quotaFor(subject.organizationId, group)
      .then((loaded) => this.limiter.consume(key, group, loaded))
      .then((consumed) => decision(group, consumed));
  }
}

function decision(group: string, result: RateLimitResult): RateLimitDecision {
  const headers: Record<string, string> = result.allowed
    ? rateLimitHeaders(group, result)
    : rateLimitExceededHeaders(group, result);
  return { allowed: result.allowed, result, headers };
}

/**
 * The providers of rate limiting, on the gateway's TypeORM data source (named `gateway`):
 * `RATE_LIMIT_CONFIG`, `RateLimiter`, `RateLimitQuotas` and `RateLimitEnforcer`.
 */
export function rateLimitProviders(
  config: RateLimitConfig,
  options: { overridesTtlMs?: number } = {},
): Provider[] {
  const logger = new Logger('RateLimits');
  const onError = (error: unknown): void =>
    logger.warn({ err: error }, 'rate limiting is failing open');
  return [
    { provide: RATE_LIMIT_CONFIG, useValue: config },
    {
      provide: RateLimiter,
      inject: [getDataSourceToken('gateway')],
      useFactory: (dataSource: DataSource) =>
        new RateLimiter(dataSource, { windowSeconds: config.windowSeconds, onError }),
    },
    {
      provide: RateLimitQuotas,
      inject: [getDataSourceToken('gateway')],
      useFactory: (dataSource: DataSource) =>
        new RateLimitQuotas(dataSource, config, { ttlMs: options.overridesTtlMs, onError }),
    },
    RateLimitEnforcer,
  ];
}
