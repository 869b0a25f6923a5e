import type { LimitedGroup, RateLimitConfig } from './rate-limit.config';
import type { RateLimitsRepository } from './rate-limits.repository';

export interface RateLimitQuotasOptions {
  /** How long an organization's overrides are used before they are read again. */
  ttlMs?: number;
  now?: () => number;
  /** After a failed read, the defaults are used and the read is retried after this long. */
  retryMs?: number;
  onError?: (error: unknown) => void;
  /** Organizations kept in memory at most (oldest dropped first). */
  maxEntries?: number;
}

interface Entry {
  /** False while the organization's first read is in flight. */
  loaded: boolean;
  overrides: ReadonlyMap<string, number>;
  expiresAt: number;
  refreshing?: Promise<ReadonlyMap<string, number>>;
}

/**
 * The quota of a group for an organization: the deployment's default unless
 * `gateway.rate_limit_overrides` has a row for the pair. Overrides are cached per organization
 * for `ttlMs`; an expired entry is still answered from memory while one background read
 * refreshes it, so only an organization's first request in the process waits for the database.
 */
export class RateLimitQuotas {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly retryMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly maxEntries: number;

  constructor(
    private readonly repository: Pick<RateLimitsRepository, 'overridesOf'>,
    private readonly config: Pick<RateLimitConfig, 'defaults'>,
    options: RateLimitQuotasOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.retryMs = options.retryMs ?? 1000;
    this.onError = options.onError ?? (() => undefined);
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** The quota per window; callers without an organization (keyed by IP) get the default. */
  async quotaFor(organizationId: string | undefined, group: LimitedGroup): Promise<number> {
    const cached = this.cachedQuotaFor(organizationId, group);
    if (cached !== undefined) return cached;
    const overrides = await this.load(organizationId as string);
    return overrides.get(group) ?? this.config.defaults[group];
  }

  /** The quota without waiting, or undefined while the organization's overrides were never read. */
  cachedQuotaFor(organizationId: string | undefined, group: LimitedGroup): number | undefined {
    const fallback = this.config.defaults[group];
    if (!organizationId) return fallback;
    const entry = this.entries.get(organizationId);
    if (!entry || !entry.loaded) return undefined;
    if (entry.expiresAt <= this.now() && !entry.refreshing) void this.load(organizationId);
    return entry.overrides.get(group) ?? fallback;
  }

  /** Reads an organization's overrides now (or waits for the read already in flight). */
  async refresh(organizationId: string): Promise<void> {
    await this.load(organizationId);
  }

  /** Forgets cached overrides (one organization or all), e.g. after an operator changed them. */
  invalidate(organizationId?: string): void {
    if (organizationId === undefined) this.entries.clear();
    else this.entries.delete(organizationId);
  }

  private load(organizationId: string): Promise<ReadonlyMap<string, number>> {
    const existing = this.entries.get(organizationId);
    if (existing?.refreshing) return existing.refreshing;
    const refreshing = this.repository.overridesOf(organizationId).then(
      (rows) => {
        const overrides = new Map<string, number>();
        for (const row of rows) overrides.set(row.policy, Number(row.quota));
        this.store(organizationId, { loaded: true, overrides, expiresAt: this.now() + this.ttlMs });
        return overrides;
      },
      (error: unknown) => {
        this.onError(
          new Error(
            `reading rate-limit overrides of ${organizationId} failed; using the defaults`,
            { cause: error },
          ),
        );
        const overrides = existing?.overrides ?? new Map<string, number>();
        this.store(organizationId, {
          loaded: true,
          overrides,
          expiresAt: this.now() + this.retryMs,
        });
        return overrides;
      },
    );
    if (existing) existing.refreshing = refreshing;
    else
      this.store(organizationId, { loaded: false, overrides: new Map(), expiresAt: 0, refreshing });
    return refreshing;
  }

  private store(organizationId: string, entry: Entry): void {
    this.entries.delete(organizationId);
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(organizationId, entry);
  }
}

/**
 * The counter key of a request: `org:<id>:<group>` when the caller belongs to an organization
 * (policies are organization-wide: all keys and workspaces share them), otherwise
 * `ip:<address>:<group>` (unauthenticated `auth` and `docs` routes, operators).
 */
export function rateLimitKey(
  group: LimitedGroup,
  subject: { organizationId?: string; clientIp: string },
): string {
  if (subject.organizationId) return `org:${subject.organizationId}:${group}`;
  return `ip:${clientNetwork(subject.clientIp)}:${group}`;
}

/**
 * The address a client is counted by: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, the
 * smallest network one subscriber usually gets, so rotating addresses inside it does not multiply
 * the quota (nor the counters).
 */
export function clientNetwork(ip: string): string {
  const address = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail] = address.split('%')[0].split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? left
      : [
          ...left,
          ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
          ...right,
        ];
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
