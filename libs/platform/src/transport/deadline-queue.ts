import { performance } from 'node:perf_hooks';

interface Pending {
  deadline: number;
  expire: () => void;
  done: boolean;
}

/**
 * Time-outs that share one duration (the in-process requests of a ServiceClient): one Node timer
 * for the earliest deadline, instead of a timer set and cleared for every request (on the running
 * platform that pair cost ~2 us per request: Node files timers in a dictionary by duration and a
 * priority queue). With a single duration, deadlines come in the order they are added, so the
 * queue is first in, first out. The timer holds the event loop open only while some entry is
 * waiting, as a timer per request did.
 */
export class DeadlineQueue {
  private pending: Pending[] = [];
  private head = 0;
  private waiting = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly durationMs: number) {}

  /** Calls `expire` once `durationMs` have passed, unless the answered function is called first. */
  add(expire: () => void): () => void {
    const entry: Pending = { deadline: performance.now() + this.durationMs, expire, done: false };
    this.pending.push(entry);
    if (this.waiting++ === 0) {
      if (this.timer) this.timer.ref();
      else this.timer = setTimeout(() => this.fire(), this.durationMs);
    }
    return () => {
      if (entry.done) return;
      entry.done = true;
      this.waiting--;
      this.dropDone();
    };
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.head < this.pending.length) {
      const entry = this.pending[this.head];
      if (!entry.done && entry.deadline > now) break;
      this.head++;
      if (entry.done) continue;
      entry.done = true;
      this.waiting--;
      entry.expire();
    }
    // An `expire` may have added (and armed a timer for) a later entry: the timer is the head's.
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dropDone();
    if (this.waiting > 0) {
      const next = this.pending[this.head].deadline - now;
      this.timer = setTimeout(() => this.fire(), Math.max(1, Math.ceil(next)));
    }
  }

  /** Forgets answered entries at the front; with none waiting, the timer and the queue go. */
  private dropDone(): void {
    while (this.head < this.pending.length && this.pending[this.head].done) this.head++;
    if (this.waiting === 0) {
      // Requests answered within the same turn of the event loop leave the queue empty after
      // each one: the timer stays armed (it finds nothing when it fires) but no longer holds the
      // event loop open, instead of being cleared and set again per request.
      this.timer?.unref();
      if (this.head > 0) {
        this.pending.length = 0;
        this.head = 0;
      }
    } else if (this.head > 1024 && this.head * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
  }
}
