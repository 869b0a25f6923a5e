import type { Pool } from 'pg';
import { outboxChannel } from '../outbox/outbox.table';
import { jobsChannel } from '../work-queue/work-queue.table';

/**
 * NOTIFYs sent after the writing transaction commits, outside it, at most one in flight per
 * channel and payload. Why not `pg_notify` inside the write: a transaction that notifies takes
 * PostgreSQL's notify-queue lock at commit and holds it through its WAL flush, so notifying
 * transactions commit one at a time, one fsync each. On the send path that capped accepted
 * messages near 1,000/s with the CPUs half idle.
 *
 * The NOTIFY commits asynchronously (`synchronous_commit` off for its own one-statement
 * transaction): a wake-up lost to a crash is harmless, since listeners also poll. A wake asked for
 * while one is on the wire is sent once more afterwards, since a listener woken by the earlier one
 * may have looked before the caller's commit.
 */
/** The shortest time between two NOTIFYs of one channel and payload. */
const REPEAT_AFTER_MS = 10;

export class Wakeups {
  private readonly wanted = new Map<string, 'sending' | 'again'>();

  constructor(private readonly pool: Pool) {}

  /** Call after the commit that made the work visible; never waits and never throws. */
  wake(channel: string, payload = ''): void {
    const key = `${channel}\u0000${payload}`;
    if (this.wanted.has(key)) {
      this.wanted.set(key, 'again');
      return;
    }
    this.wanted.set(key, 'sending');
    void this.send(key, channel, payload);
  }

  private async send(key: string, channel: string, payload: string): Promise<void> {
    for (;;) {
      try {
        await this.pool.query(
          "SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)",
          [channel, payload],
        );
      } catch {
        // The pool is closing or the database is away: the listeners' polling covers it.
      }
      if (this.wanted.get(key) !== 'again') break;
      this.wanted.set(key, 'sending');
      // Under load the listener is busy anyway: one wake per interval gathers the commits.
      await new Promise((resolve) => setTimeout(resolve, REPEAT_AFTER_MS));
    }
    this.wanted.delete(key);
  }
}

const byPool = new WeakMap<Pool, Wakeups>();

/** The pool's wake-ups (one coalescing sender per pool). */
export function wakeupsOf(pool: Pool): Wakeups {
  let wakeups = byPool.get(pool);
  if (!wakeups) byPool.set(pool, (wakeups = new Wakeups(pool)));
  return wakeups;
}

/** Wakes the workers of `queue` after a commit that enqueued jobs due now. */
export function wakeQueue(pool: Pool, schema: string, queue: string): void {
  wakeupsOf(pool).wake(jobsChannel(schema), queue);
}

/** Wakes the schema's outbox relay after a commit that wrote events. */
export function wakeRelay(pool: Pool, schema: string): void {
  wakeupsOf(pool).wake(outboxChannel(schema));
}
