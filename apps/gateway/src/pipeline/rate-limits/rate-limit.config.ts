import type { EnvVar } from '@switchboard/platform';
import type { RateLimitGroup } from '../routes/route-policy';

/** The groups that spend quota (`none` routes are not limited). */
export type LimitedGroup = Exclude<RateLimitGroup, 'none'>;

const RATE_LIMIT_GROUPS: readonly LimitedGroup[] = [
  'api_list',
  'read',
  'write',
  'email_send',
  'email_batch',
  'sms_send',
  'sms_batch',
  'whatsapp_send',
  'realtime_publish',
  'admin',
  'auth',
  'docs',
  'tracking',
  'unsubscribe',
];

/** Requests per window (one minute) of each group, before per-organization overrides. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<LimitedGroup, number>> = {
  api_list: 150,
  read: 500,
  write: 60,
  email_send: 10,
  email_batch: 5,
  sms_send: 10,
  sms_batch: 5,
  whatsapp_send: 10,
  // Server-side publishes (events, batches, member events): an app's traffic, not management.
  realtime_publish: 6000,
  admin: 600,
  auth: 60,
  docs: 600,
  // Open pixels and tracked links, per client address: inbox proxies (Gmail's, Apple's) fetch
  // for many people from few addresses, so only a flood is refused.
  tracking: 60_000,
  // Unsubscribe pages and their POSTs, per client address: people, one at a time.
  unsubscribe: 120,
};

/** The deployment's limits. `enabled: false` turns the limiter off (no headers, no counting). */
export interface RateLimitConfig {
  enabled: boolean;
  defaults: Record<LimitedGroup, number>;
  windowSeconds: number;
}

const MAX_QUOTA = 1_000_000_000;

function isLimitedGroup(value: string): value is LimitedGroup {
  return (RATE_LIMIT_GROUPS as readonly string[]).includes(value);
}

/**
 * Parses `RATE_LIMITS`: comma-separated `group=quota` pairs that replace the defaults of the
 * groups they name (`api_list=300, email_send=20`); unset or empty keeps every default; `off`
 * disables rate limiting. Quotas are integers from 0 (the group is always refused) to 1e9.
 * Throws an Error with a one-line message on anything else.
 */
export function parseRateLimits(raw: string | undefined): RateLimitConfig {
  const defaults = { ...DEFAULT_RATE_LIMITS };
  const text = (raw ?? '').trim();
  if (text === '') return { enabled: true, defaults, windowSeconds: 60 };
  if (text.toLowerCase() === 'off') return { enabled: false, defaults, windowSeconds: 60 };
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const match = /^([a-z_]+)\s*=\s*(\d+)$/.exec(entry);
    if (!match) throw new Error(`has an invalid entry "${entry}" (expected group=quota)`);
    const [, group, value] = match;
    if (!isLimitedGroup(group))
      throw new Error(`names an unknown group "${group}" (known: ${RATE_LIMIT_GROUPS.join(', ')})`);
    if (seen.has(group)) throw new Error(`names the group "${group}" twice`);
    seen.add(group);
    const quota = Number(value);
    if (!Number.isSafeInteger(quota) || quota > MAX_QUOTA)
      throw new Error(`has a quota out of range for "${group}" (0 to ${MAX_QUOTA})`);
    defaults[group] = quota;
  }
  return { enabled: true, defaults, windowSeconds: 60 };
}

/**
 * The gateway's rate-limit variables, in the shape of `@switchboard/platform`'s env schema, to
 * spread into `gatewayEnv`; `loadConfig` then yields `RATE_LIMITS` as a `RateLimitConfig`.
 */
export const rateLimitEnv = {
  RATE_LIMITS: {
    kind: 'string',
    required: false,
    default: parseRateLimits(undefined),
    description: `per-minute quotas per group as group=quota pairs (e.g. "api_list=300,email_send=20"; groups: ${RATE_LIMIT_GROUPS.join(', ')}); unset keeps the defaults, "off" disables rate limiting`,
    parse: parseRateLimits,
  } satisfies EnvVar<RateLimitConfig>,
  RATE_LIMIT_OVERRIDES_TTL_MS: {
    kind: 'int',
    required: false,
    default: 10_000,
    description:
      'how long per-organization quota overrides (gateway.rate_limit_overrides) are cached',
    parse: (raw: string): number => {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value > 3_600_000)
        throw new Error('must be an integer from 0 to 3600000');
      return value;
    },
  } satisfies EnvVar<number>,
};
