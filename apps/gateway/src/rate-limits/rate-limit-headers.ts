import { serializeInteger, serializeList } from 'structured-headers';
import type { RateLimitResult } from './rate-limiter';

/** `RateLimit-Policy` only changes with the quota: serialised once per group, quota and window. */
const policyCache = new Map<string, string>();
const POLICY_CACHE_MAX = 1000;

function policyHeader(group: string, quota: number, windowSeconds: number): string {
  const cacheKey = `${group}\u0000${quota}\u0000${windowSeconds}`;
  let header = policyCache.get(cacheKey);
  if (header === undefined) {
    header = serializeList([
      [
        group,
        new Map([
          ['q', quota],
          ['w', windowSeconds],
        ]),
      ],
    ]);
    if (policyCache.size >= POLICY_CACHE_MAX) policyCache.clear();
    policyCache.set(cacheKey, header);
  }
  return header;
}

/**
 * `RateLimit-Policy` and `RateLimit` (IETF httpapi rate-limit headers, structured fields): a list
 * with one string item naming the group, with `q` (quota) and `w` (window seconds), and `r`
 * (remaining) and `t` (seconds until the window resets).
 */
export function rateLimitHeaders(
  group: string,
  result: Pick<RateLimitResult, 'quota' | 'remaining' | 'resetSeconds' | 'windowSeconds'>,
): Record<'ratelimit-policy' | 'ratelimit', string> {
  return {
    'ratelimit-policy': policyHeader(group, result.quota, result.windowSeconds),
    ratelimit: serializeList([
      [
        group,
        new Map([
          ['r', Math.max(0, result.remaining)],
          ['t', Math.max(0, result.resetSeconds)],
        ]),
      ],
    ]),
  };
}

/**
 * The headers of a 429: the two above plus `Retry-After` in seconds, equal to `t` (the window's
 * end, when the quota is back), so a client honouring either waits the same time.
 */
export function rateLimitExceededHeaders(
  group: string,
  result: Pick<RateLimitResult, 'quota' | 'remaining' | 'resetSeconds' | 'windowSeconds'>,
): Record<'ratelimit-policy' | 'ratelimit' | 'retry-after', string> {
  return {
    ...rateLimitHeaders(group, result),
    'retry-after': serializeInteger(Math.max(1, result.resetSeconds)),
  };
}
