import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Provider } from '@nestjs/common';
import type { RateLimitGroup } from '../routes/route-policy';
import { serializeInteger } from 'structured-headers';
import { policyHeader, remainingTemplate } from './rate-limit-headers';
import { RateLimitQuotas, rateLimitKey } from './rate-limit-quotas';
import type { LimitedGroup, RateLimitConfig } from './rate-limit.config';
import { RateLimiter } from './rate-limiter';
import type { RateLimitResult } from './rate-limiter';
import { RateLimitsRepository } from './rate-limits.repository';

export const RATE_LIMIT_CONFIG = Symbol('RATE_LIMIT_CONFIG');

export interface RateLimitDecision {
  allowed: boolean;
  result: RateLimitResult;
  /** `RateLimit-Policy` and `RateLimit`, plus `Retry-After` when refused: set them on the reply. */
  headers: Record<string, string>;
}

/** Counter keys kept per kind of subject before the oldest are forgotten (all at once). */
const MAX_LANES = 10_000;

/**
 * What the enforcer keeps per counter key, so a request builds no key string and serialises
 * only its two integers: the key, and the fixed parts of its headers.
 */
interface Lane {
  readonly key: string;
  readonly group: LimitedGroup;
  /** `RateLimit` around r and t, from the structured-headers serialisation of the group. */
  readonly remaining: readonly [string, string, string];
  /** `RateLimit-Policy` for `policyQuota` and `policyWindow`. */
  policy: string;
  policyQuota: number;
  policyWindow: number;
}

/**
 * What a guard calls once the caller is known: spends one unit of the route's group for the
 * caller's organization (or client IP) and says which headers to send. `undefined` when the
 * route is not limited (`none`) or limiting is off: then no rate-limit headers are sent.
 */
@Injectable()
export class RateLimitEnforcer {
  private readonly orgLanes = new Map<string, Partial<Record<LimitedGroup, Lane>>>();
  private readonly ipLanes = new Map<string, Partial<Record<LimitedGroup, Lane>>>();

  constructor(
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
    private readonly limiter: RateLimiter,
    private readonly quotas: RateLimitQuotas,
  ) {}

  /**
   * Answers synchronously whenever this replica can (quota cached, lease in hand), which is
   * nearly every request; a promise only when the database must be asked first. Pass the subject
   * as a plain object (`clientIp` is only read without an organization): an object literal with
   * a getter costs the whole process about 20 µs per request on Node 20 (see bench/RESULTS.md).
   */
  check(
    group: RateLimitGroup,
    subject: { organizationId?: string; clientIp: string },
  ): RateLimitDecision | undefined | Promise<RateLimitDecision | undefined> {
    if (group === 'none' || !this.config.enabled) return undefined;
    // The subject is read once: every property read of an object the caller built is one more
    // inline cache that sees its shape.
    const organizationId = subject.organizationId || undefined;
    const lane = organizationId
      ? this.laneFor(this.orgLanes, organizationId, group, organizationId)
      : this.laneFor(this.ipLanes, subject.clientIp, group, undefined);
    const quota = this.quotas.cachedQuotaFor(organizationId, group);
    const result = quota === undefined ? undefined : this.limiter.tryConsume(lane.key, quota);
    if (result) return decision(lane, result);
    return this.quotas
      .quotaFor(organizationId, group)
      .then((loaded) => this.limiter.consume(lane.key, group, loaded))
      .then((consumed) => decision(lane, consumed));
  }

  /** The lane of an organization's or a client address's group, made on first use. */
  private laneFor(
    lanes: Map<string, Partial<Record<LimitedGroup, Lane>>>,
    owner: string,
    group: LimitedGroup,
    organizationId: string | undefined,
  ): Lane {
    let byGroup = lanes.get(owner);
    if (!byGroup) {
      if (lanes.size >= MAX_LANES) lanes.clear();
      lanes.set(owner, (byGroup = {}));
    }
    return (byGroup[group] ??= {
      key: rateLimitKey(group, { organizationId, clientIp: owner }),
      group,
      remaining: remainingTemplate(group),
      policy: '',
      policyQuota: -1,
      policyWindow: -1,
    });
  }
}

function decision(lane: Lane, result: RateLimitResult): RateLimitDecision {
  if (lane.policyQuota !== result.quota || lane.policyWindow !== result.windowSeconds) {
    lane.policy = policyHeader(lane.group, result.quota, result.windowSeconds);
    lane.policyQuota = result.quota;
    lane.policyWindow = result.windowSeconds;
  }
  const [head, middle, tail] = lane.remaining;
  const reset = serializeInteger(Math.max(0, result.resetSeconds));
  const headers: Record<string, string> = {
    'ratelimit-policy': lane.policy,
    ratelimit: head + serializeInteger(Math.max(0, result.remaining)) + middle + reset + tail,
  };
  if (!result.allowed) headers['retry-after'] = serializeInteger(Math.max(1, result.resetSeconds));
  return { allowed: result.allowed, result, headers };
}

/**
 * The providers of rate limiting, on the gateway's TypeORM data source (named `gateway`):
 * `RATE_LIMIT_CONFIG`, `RateLimitsRepository`, `RateLimiter`, `RateLimitQuotas` and
 * `RateLimitEnforcer`.
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
    RateLimitsRepository,
    {
      provide: RateLimiter,
      inject: [RateLimitsRepository],
      useFactory: (repository: RateLimitsRepository) =>
        new RateLimiter(repository, { windowSeconds: config.windowSeconds, onError }),
    },
    {
      provide: RateLimitQuotas,
      inject: [RateLimitsRepository],
      useFactory: (repository: RateLimitsRepository) =>
        new RateLimitQuotas(repository, config, { ttlMs: options.overridesTtlMs, onError }),
    },
    RateLimitEnforcer,
  ];
}
