import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../observability/metrics';

export interface ForegroundPriorityOptions {
  /** How often the event loop's load is read and the share adjusted. Default 100 ms. */
  intervalMs?: number;
  /** Utilization above which the loop counts as busy. Default 0.75. */
  busyUtilization?: number;
  /**
   * Longest lateness of the loop (a callback waiting that long to run) above which it counts as
   * busy, whatever its utilization: on a machine whose CPUs are all taken (PostgreSQL, other
   * processes) the loop is late without being busier. Default 20 ms.
   */
  busyDelayMs?: number;
  /** Smallest share background work keeps, so it never starves. Default 1/16. */
  floorShare?: number;
  /**
   * Share given back per interval in which requests arrived but the loop had room (additive
   * increase). An interval without any request gives the whole share back. Default 1/32.
   */
  recoveryStep?: number;
  /** Reads the loop's load since the previous reading (tests pass their own). */
  readLoad?: () => LoopLoad;
}

/** The event loop over one interval: the share of it spent running, and its worst lateness. */
export interface LoopLoad {
  utilization: number;
  maxDelayMs: number;
}

const share = new Gauge({
  name: 'switchboard_background_share',
  help: 'Share of their configured concurrency that background workers (email delivery) may use now; below 1 while requests keep the event loop busy',
  registers: [metricsRegistry],
});
share.set(1);

/**
 * Lets background work (queue workers) yield to foreground work (requests) sharing one event
 * loop. Requests only wait behind the callbacks queued ahead of them, so a loop saturated by
 * delivery batches answers every request late, and in a closed loop of clients the API's
 * throughput is whatever delivery leaves over.
 *
 * The rule is additive-increase, multiplicative-decrease on a share of each worker's concurrency:
 * every interval in which requests arrived and the loop was busy (`busyUtilization`,
 * `busyDelayMs`), the share halves, down to `floorShare` (accepted work keeps moving); every
 * other interval with requests it grows by `recoveryStep`. Without requests, background work has
 * the whole loop, at once: after a burst of requests ends, stepping back up would hold the work
 * the burst accepted (a backlog of sends) at a fraction of its pace for seconds, with nobody left
 * to yield to. One instance per process (`foregroundPriority`), because the loop is the process's.
 */
export class ForegroundPriority {
  private readonly intervalMs: number;
  private readonly busyUtilization: number;
  private readonly busyDelayMs: number;
  private readonly floorShare: number;
  private readonly recoveryStep: number;
  private readonly readLoad: () => LoopLoad;
  private readonly listeners = new Set<() => void>();
  /** Whether a request arrived in the interval under way. */
  private requested = false;
  private current = 1;
  private timer?: NodeJS.Timeout;
  /** The share comes from another thread's readings (`follow`). */
  private followed = false;

  constructor(options: ForegroundPriorityOptions = {}) {
    this.intervalMs = options.intervalMs ?? 100;
    this.busyUtilization = options.busyUtilization ?? 0.75;
    this.busyDelayMs = options.busyDelayMs ?? 20;
    this.floorShare = options.floorShare ?? 1 / 16;
    this.recoveryStep = options.recoveryStep ?? 1 / 32;
    this.readLoad = options.readLoad ?? loopLoad();
  }

  /** A request arrived (the RPC servers call this for every request they serve). */
  noteRequest(): void {
    this.requested = true;
  }

  /** The share of its concurrency a background worker may use now, between the floor and 1. */
  get share(): number {
    return this.current;
  }

  /** How many of `concurrency` slots a background worker may fill now: at least one. */
  limit(concurrency: number): number {
    return Math.max(1, Math.floor(concurrency * this.current));
  }

  /**
   * Calls `listener` whenever the share grows (a worker at its limit claims again then) and
   * starts the readings while anyone listens. Answers the function that stops listening.
   */
  onRaise(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.timer && !this.followed) {
      this.readLoad(); // the first interval starts now
      this.timer = setInterval(() => this.adjust(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      clearInterval(this.timer);
      this.timer = undefined;
      this.current = 1;
      share.set(1);
    };
  }

  /**
   * Takes the share another thread decided (the embedded default's background thread follows the
   * thread that answers requests: ADR 11): from the first call on, this thread's own loop is no
   * longer read, since the requests whose latency matters are not served on it.
   */
  follow(value: number): void {
    this.followed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    const before = this.current;
    this.current = Math.min(1, Math.max(this.floorShare, value));
    if (this.current === before) return;
    share.set(this.current);
    if (this.current > before) for (const listener of this.listeners) listener();
  }

  /** One interval's decision (the timer's; tests call it directly). */
  adjust(): void {
    const load = this.readLoad();
    const requested = this.requested;
    const busy =
      requested && (load.utilization > this.busyUtilization || load.maxDelayMs > this.busyDelayMs);
    this.requested = false;
    const before = this.current;
    if (busy) this.current = Math.max(this.floorShare, before / 2);
    else this.current = requested ? Math.min(1, before + this.recoveryStep) : 1;
    if (this.current === before) return;
    share.set(this.current);
    if (this.current > before) for (const listener of this.listeners) listener();
  }
}

/** How often the loop's lateness is sampled, in ms; each sample counts this period in. */
const DELAY_RESOLUTION_MS = 10;

/** The event loop's load over each successive interval between calls. */
function loopLoad(): () => LoopLoad {
  let last: EventLoopUtilization | undefined;
  let delay: ReturnType<typeof monitorEventLoopDelay> | undefined;
  return () => {
    if (!delay) {
      delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
      delay.enable();
    }
    const now = performance.eventLoopUtilization();
    const utilization = (last ? performance.eventLoopUtilization(now, last) : now).utilization;
    last = now;
    // An empty histogram's max is 0. It lives as long as the process, as prom-client's event-loop
    // metrics do; it costs one timer.
    const maxDelayMs = Math.max(0, delay.max / 1e6 - DELAY_RESOLUTION_MS);
    delay.reset();
    return { utilization, maxDelayMs };
  };
}

/** The process's one instance: its event loop is shared by every service in it. */
export const foregroundPriority = new ForegroundPriority();
