import type { RateLimitsRepository } from './rate-limits.repository';

export interface RateLimitResult {
  allowed: boolean;
  quota: number;
  /** Requests left in this window as far as this replica knows; never negative. */
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiterOptions {
  /** Fixed window length; the spec's is one minute. */
  windowSeconds?: number;
  /** Clock in milliseconds (tests advance it instead of sleeping). */
  now?: () => number;
  /**
   * Largest lease as a fraction of the quota: the block is at most ceil(quota / leaseDivisor).
   * It bounds what a replica can hold unspent (the under-admission tolerance) and sets the
   * number of database round trips per busy key and window (about leaseDivisor per replica).
   */
  leaseDivisor?: number;
  /**
   * A lease aims to last about this long at the key's observed request rate (default: one
   * window, so the observed rate is requests per window and a key makes about leaseDivisor
   * round trips per window however busy it is).
   */
  leaseTargetMs?: number;
  /** A lease round trip slower than this lets its waiters through (fail open); the lease still lands. */
  storeTimeoutMs?: number;
  /** After a failed lease, admit without leasing for this long before trying the database again. */
  failOpenMs?: number;
  /** How often windows older than the previous one are deleted, locally and in the table; 0 disables. */
  purgeIntervalMs?: number;
  /** Told about database failures (the limiter then fails open); log them. */
  onError?: (error: unknown) => void;
}

interface KeyState {
  /** Window index: floor(now / window). */
  window: number;
  /** The quota the state last ran with; a change clears `exhausted`. */
  quota: number;
  /** Leased from the shared counter and not yet admitted here. */
  available: number;
  /** The shared counter as of this replica's last lease (it includes that lease). */
  sharedUsed: number;
  /** Admitted without a lease while the database was failing. */
  unleased: number;
  /** The shared counter refused a lease at `quota`: nothing more this window. */
  exhausted: boolean;
  /** Size of the last lease requested. */
  block: number;
  lastLeaseAt?: number;
  lastGrant: number;
  failOpenUntil: number;
  waiters: number;
  pending?: Promise<void>;
}

/**
 * Fixed-window rate limiter shared by gateway replicas through one PostgreSQL counter per key
 * and window (`gateway.rate_limit_windows`), without a database round trip per request.
 *
 * Each replica leases blocks of quota from the shared counter with one atomic upsert that never
 * lets the counter pass the quota, then admits requests locally until its lease is spent. Only
 * one lease per key is in flight at a time: concurrent requests wait for that round trip. Every
 * admitted request was leased, so all replicas together admit at most the quota (exactly, no
 * over-admission while the database answers). The price is under-admission: quota leased by a
 * replica whose traffic then stops stays unspent until the window ends, at most one block, that
 * is ceil(quota / leaseDivisor), per other replica and key.
 *
 * The block adapts to the key's rate: max(1, min(ceil(quota / leaseDivisor), observed rate)),
 * the observed rate being the requests per window (`leaseTargetMs`) the last lease was spent at,
 * and never less than the requests already waiting. A key's first lease in a window is 1 (or
 * half the previous window's last block). A quiet organization therefore strands at most what it
 * would use anyway, and any key costs at most about leaseDivisor + 2 round trips per window and
 * replica, however busy it is.
 *
 * When the database fails or times out, the limiter fails open for `failOpenMs` (it admits and
 * reports the error through `onError`) rather than failing the API.
 */
export class RateLimiter {
  readonly windowSeconds: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly leaseDivisor: number;
  private readonly leaseTargetMs: number;
  private readonly storeTimeoutMs: number;
  private readonly failOpenMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly states = new Map<string, KeyState>();
  private readonly purgeTimer?: NodeJS.Timeout;
  /** Database round trips made for leases, for tests and metrics. */
  leaseRoundTrips = 0;

  constructor(
    private readonly windows: Pick<RateLimitsRepository, 'lease' | 'deleteWindowsBefore'>,
    options: RateLimiterOptions = {},
  ) {
    this.windowSeconds = options.windowSeconds ?? 60;
    if (!Number.isInteger(this.windowSeconds) || this.windowSeconds < 1)
      throw new Error('windowSeconds must be a positive integer');
    this.windowMs = this.windowSeconds * 1000;
    this.now = options.now ?? Date.now;
    this.leaseDivisor = Math.max(1, options.leaseDivisor ?? 20);
    this.leaseTargetMs = options.leaseTargetMs ?? this.windowMs;
    this.storeTimeoutMs = options.storeTimeoutMs ?? 2000;
    this.failOpenMs = options.failOpenMs ?? 1000;
    this.onError = options.onError ?? (() => undefined);
    const purgeIntervalMs = options.purgeIntervalMs ?? this.windowMs;
    if (purgeIntervalMs > 0) {
      this.purgeTimer = setInterval(() => void this.purge().catch(this.onError), purgeIntervalMs);
      this.purgeTimer.unref();
    }
  }

  /**
   * Spends one unit of `key`'s quota in the current window. `key` names the subject and the
   * group (see `rateLimitKey`); `group` is only used in error reports; `quota` is the key's
   * current limit per window (0 refuses everything).
   */
  async consume(key: string, group: string, quota: number): Promise<RateLimitResult> {
    const limit = Math.max(0, Math.floor(quota));
    for (;;) {
      const answered = this.tryConsume(key, limit);
      if (answered) return answered;
      const now = this.now();
      const state = this.stateFor(key, Math.floor(now / this.windowMs), limit);
      state.waiters += 1;
      try {
        await (state.pending ??= this.lease(key, group, state, now));
      } finally {
        state.waiters -= 1;
      }
    }
  }

  /**
   * `consume` without waiting: the answer when this replica can give it from memory (its lease,
   * an exhausted window, failing open), or undefined when a lease must be fetched first.
   */
  tryConsume(key: string, quota: number): RateLimitResult | undefined {
    const limit = Math.max(0, Math.floor(quota));
    const now = this.now();
    const state = this.stateFor(key, Math.floor(now / this.windowMs), limit);
    if (state.available > 0) {
      state.available -= 1;
      return this.result(true, state, limit, now);
    }
    if (state.exhausted || limit === 0) return this.result(false, state, limit, now);
    if (state.failOpenUntil > now) {
      state.unleased += 1;
      return this.result(true, state, limit, now);
    }
    return undefined;
  }

  /** Deletes windows older than the previous one, here and in the shared table. */
  async purge(): Promise<void> {
    const current = Math.floor(this.now() / this.windowMs);
    for (const [key, state] of this.states) {
      if (state.window < current - 1 && !state.pending) this.states.delete(key);
    }
    await this.windows.deleteWindowsBefore((current - 2) * this.windowSeconds);
  }

  /** Stops the purge timer. Unspent leases are simply left to expire with their window. */
  close(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }

  onModuleDestroy(): void {
    this.close();
  }

  private stateFor(key: string, window: number, quota: number): KeyState {
    let state = this.states.get(key);
    if (!state || state.window !== window) {
      const carried =
        state && state.window === window - 1 ? Math.max(1, Math.floor(state.block / 2)) : 1;
      state = {
        window,
        quota,
        available: 0,
        sharedUsed: 0,
        unleased: 0,
        exhausted: false,
        block: carried,
        lastGrant: 0,
        failOpenUntil: state?.failOpenUntil ?? 0,
        waiters: 0,
      };
      this.states.set(key, state);
    } else if (state.quota !== quota) {
      // An override changed. A higher quota may lease again; under a lower one, the unspent
      // lease is cut to what the new quota leaves (the shared counter caps further leases).
      if (quota < state.quota)
        state.available = Math.min(
          state.available,
          Math.max(0, quota - (state.sharedUsed - state.available)),
        );
      state.quota = quota;
      state.exhausted = false;
    }
    return state;
  }

  private nextBlock(state: KeyState, quota: number, now: number): number {
    const cap = Math.max(1, Math.ceil(quota / this.leaseDivisor));
    let wanted = Math.max(1, state.block);
    if (state.lastLeaseAt !== undefined && state.lastGrant > 0) {
      // The previous lease is spent: lastGrant requests took (now - lastLeaseAt) ms, so this
      // many would arrive in leaseTargetMs at the same rate.
      const elapsed = Math.max(1, now - state.lastLeaseAt);
      wanted = Math.ceil((state.lastGrant * this.leaseTargetMs) / elapsed);
    }
    return Math.max(1, Math.min(cap, Math.max(wanted, state.waiters)));
  }

  private lease(key: string, group: string, state: KeyState, now: number): Promise<void> {
    const block = this.nextBlock(state, state.quota, now);
    const quota = state.quota;
    state.block = block;
    this.leaseRoundTrips += 1;
    const roundTrip = (async () => {
      try {
        const { used, granted } = await this.windows.lease(
          key,
          state.window * this.windowSeconds,
          quota,
          block,
        );
        state.sharedUsed = Math.max(state.sharedUsed, used);
        state.available += granted;
        state.lastGrant = granted;
        state.lastLeaseAt = now;
        if (granted === 0 && quota === state.quota) state.exhausted = true;
      } catch (error) {
        this.onError(
          new Error(
            `rate-limit lease for ${key} (${group}) failed; admitting without a lease for ${this.failOpenMs} ms`,
            { cause: error },
          ),
        );
        state.failOpenUntil = this.now() + this.failOpenMs;
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.onError(
          new Error(
            `rate-limit lease for ${key} (${group}) took longer than ${this.storeTimeoutMs} ms`,
          ),
        );
        state.failOpenUntil = this.now() + this.failOpenMs;
        resolve();
      }, this.storeTimeoutMs);
      timer.unref();
    });
    const settled = Promise.race([roundTrip, timeout]).finally(() => {
      clearTimeout(timer);
      if (state.pending === settled) state.pending = undefined;
    });
    return settled;
  }

  private result(allowed: boolean, state: KeyState, quota: number, now: number): RateLimitResult {
    const windowEnd = (state.window + 1) * this.windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    const remaining = allowed
      ? Math.min(quota, Math.max(0, quota - state.sharedUsed + state.available - state.unleased))
      : 0;
    return { allowed, quota, remaining, resetSeconds, windowSeconds: this.windowSeconds };
  }
}
