/** How an attempt went, as far as the receiver's capacity is concerned. */
export type PaceFeedback =
  /** Answered 2xx in `durationMs`. */
  | { kind: 'answered'; durationMs: number }
  /** Time-out, refused or reset connection, 5xx, 429: the receiver is not keeping up. */
  | { kind: 'overloaded'; pauseMs?: number }
  /** Says nothing about capacity (a 4xx, a refused address, no secret). */
  | { kind: 'neutral' };

export type PaceSlot =
  | { paused: false; release(feedback: PaceFeedback): void }
  /**
   * Not now: come back at `until` (epoch ms). The receiver asked to be left alone (Retry-After),
   * or its queue already holds what it can take within `maxQueueWaitMs`.
   */
  | { paused: true; until: number; reason: 'retry_after' | 'backlog' };

export interface PacerSettings {
  /** Window of a new endpoint, and the floor it grows from again after a pause. */
  initial: number;
  /** Largest window any endpoint grows to. */
  max: number;
  /** Longest pause a Retry-After can ask for, and longest a delivery is sent away for. */
  maxPauseMs: number;
  /**
   * Longest a delivery may wait here for its endpoint's window, at the pace its attempts have
   * been taking. Beyond it deliveries are sent away until about when the window could take
   * them: each waiting one holds a worker slot, and a slow receiver must not hold them all.
   */
  maxQueueWaitMs: number;
}

interface Window {
  limit: number;
  active: number;
  waiting: Array<(slot: PaceSlot) => void>;
  /** Answers since the window last grew. */
  answered: number;
  /** Doubling per round trip until the first sign of overload, then one more per round trip. */
  slowStart: boolean;
  /** Lowest answer time seen, drifting up slowly so a receiver that got slower is re-learnt. */
  baselineMs: number;
  lastCutAt: number;
  pausedUntil: number;
  /** How long attempts have been taking, from start to release, whatever their outcome. */
  attemptMs?: number;
}

/** An answer this much slower than the baseline (and over the floor) is queueing, not capacity. */
const SLOWER_THAN_BASELINE = 3;
const SLOW_FLOOR_MS = 50;
const BASELINE_DRIFT = 0.01;
const MAX_IDLE_WINDOWS = 10_000;
/** Weight of the newest attempt in `attemptMs`. */
const ATTEMPT_WEIGHT = 0.2;
/** Shortest time a delivery sent away for a full queue stays away. */
const MIN_AWAY_MS = 1_000;

/**
 * Per-endpoint windows of deliveries in flight that follow the receiver (ADR 16): a window grows
 * while answers come back as fast as the best seen (doubling per round trip at first, as TCP's
 * slow start, then one per round trip), halves on a time-out, a refused connection, a 5xx or a
 * 429 (at most once per round trip, since the attempts in flight when it happened report it
 * too), and a Retry-After pauses the endpoint: waiting and new attempts are handed back with the
 * time to come back at, so no worker slot sits idle in front of it. The queue in front of a
 * window holds no more than it can take within `maxQueueWaitMs` at the pace of its recent
 * attempts; the rest are handed back the same way (the newest first), so a receiver that got
 * slow or stopped answering cannot keep every worker slot waiting while other endpoints' deliveries
 * sit unclaimed. Attempts wait in arrival order, which keeps one endpoint's deliveries in the
 * order they were claimed.
 */
export class EndpointPacer {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly settings: PacerSettings,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(key: string): Promise<PaceSlot> {
    const window = this.windowOf(key);
    const paused = this.pauseOf(window);
    if (paused) return Promise.resolve(paused);
    if (window.active < window.limit) return Promise.resolve(this.start(key, window));
    if (window.waiting.length >= this.queueRoom(window)) return Promise.resolve(this.away(window));
    return new Promise((resolve) => window.waiting.push(resolve));
  }

  /** An endpoint's current window, for metrics and tests. */
  limitOf(key: string): number {
    return this.windows.get(key)?.limit ?? this.settings.initial;
  }

  get size(): number {
    return this.windows.size;
  }

  private windowOf(key: string): Window {
    let window = this.windows.get(key);
    if (!window) {
      if (this.windows.size >= MAX_IDLE_WINDOWS) this.forgetIdle();
      window = {
        limit: this.settings.initial,
        active: 0,
        waiting: [],
        answered: 0,
        slowStart: true,
        baselineMs: Infinity,
        lastCutAt: 0,
        pausedUntil: 0,
      };
      this.windows.set(key, window);
    }
    return window;
  }

  private pauseOf(window: Window): PaceSlot | undefined {
    return window.pausedUntil > this.now()
      ? { paused: true, until: window.pausedUntil, reason: 'retry_after' }
      : undefined;
  }

  /** Deliveries the queue may hold: what the window takes within `maxQueueWaitMs`. */
  private queueRoom(window: Window): number {
    if (!window.attemptMs) return Infinity;
    const { limit, attemptMs } = window;
    return Math.max(limit, Math.floor((this.settings.maxQueueWaitMs * limit) / attemptMs));
  }

  /** A delivery sent away from a full queue: back when the queue should have reached it. */
  private away(window: Window): PaceSlot {
    const drainMs = (window.waiting.length / window.limit) * (window.attemptMs ?? 0);
    const awayMs = Math.min(this.settings.maxPauseMs, Math.max(MIN_AWAY_MS, drainMs));
    return { paused: true, until: this.now() + awayMs, reason: 'backlog' };
  }

  private start(key: string, window: Window): PaceSlot {
    window.active += 1;
    const startedAt = this.now();
    let released = false;
    return {
      paused: false,
      release: (feedback) => {
        if (released) return;
        released = true;
        window.active -= 1;
        const tookMs = Math.max(0, this.now() - startedAt);
        window.attemptMs =
          window.attemptMs === undefined
            ? tookMs
            : window.attemptMs + (tookMs - window.attemptMs) * ATTEMPT_WEIGHT;
        this.learn(window, feedback);
        this.pump(key, window);
      },
    };
  }

  private learn(window: Window, feedback: PaceFeedback): void {
    if (feedback.kind === 'answered') {
      const { durationMs } = feedback;
      window.baselineMs =
        durationMs < window.baselineMs
          ? durationMs
          : window.baselineMs + (durationMs - window.baselineMs) * BASELINE_DRIFT;
      const keepingUp =
        durationMs <= Math.max(SLOW_FLOOR_MS, window.baselineMs * SLOWER_THAN_BASELINE);
      if (!keepingUp) return;
      window.answered += 1;
      if (window.answered >= window.limit) {
        window.answered = 0;
        const grown = window.slowStart ? window.limit * 2 : window.limit + 1;
        window.limit = Math.min(this.settings.max, grown);
      }
      return;
    }
    if (feedback.kind !== 'overloaded') return;
    const now = this.now();
    if (feedback.pauseMs !== undefined && feedback.pauseMs > 0) {
      window.pausedUntil = Math.max(
        window.pausedUntil,
        now + Math.min(feedback.pauseMs, this.settings.maxPauseMs),
      );
    }
    window.slowStart = false;
    window.answered = 0;
    // The attempts that were in flight with this one report the same overload: one cut for all.
    const roundTrip = Number.isFinite(window.baselineMs) ? window.baselineMs : 0;
    if (now - window.lastCutAt < Math.max(100, roundTrip * 2)) return;
    window.lastCutAt = now;
    window.limit = Math.max(1, Math.floor(window.limit / 2));
  }

  /** Keeps memory bounded when very many endpoints have grown windows: idle ones are re-learnt. */
  private forgetIdle(): void {
    const now = this.now();
    for (const [key, window] of this.windows)
      if (window.active === 0 && window.waiting.length === 0 && window.pausedUntil <= now)
        this.windows.delete(key);
  }

  private pump(key: string, window: Window): void {
    const paused = this.pauseOf(window);
    while (window.waiting.length > 0 && (paused || window.active < window.limit)) {
      const next = window.waiting.shift() as (slot: PaceSlot) => void;
      next(paused ?? this.start(key, window));
    }
    // The window shrank, or attempts got slower: what the queue can no longer take goes back.
    const room = this.queueRoom(window);
    while (window.waiting.length > room) {
      const newest = window.waiting.pop() as (slot: PaceSlot) => void;
      newest(this.away(window));
    }
    // An idle endpoint's window is kept while it is paused or has grown (it is learnt again
    // otherwise); one at the initial size is dropped, so endpoints come and go freely.
    if (
      window.active === 0 &&
      window.waiting.length === 0 &&
      window.limit === this.settings.initial &&
      !paused
    )
      this.windows.delete(key);
  }
}
