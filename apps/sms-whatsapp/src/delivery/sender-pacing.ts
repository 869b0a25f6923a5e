/**
 * When each message of a sender with a throughput cap (`sender_tps=`) may be submitted: turns
 * handed out in the order asked, one per part, `1000 / senderTps` ms apart. The submit runner
 * waits for a turn that is close without taking a slot of the bind's window, and puts a message
 * whose turn is further off back in the queue until then, keeping the turn in its payload: a
 * sender with a long backlog holds neither the window nor the worker, so other senders on the
 * same carrier are not held up behind it. The bind's queue enforces the cap itself as well; the
 * turns only keep the window free of messages that could not go yet.
 *
 * Turns are kept in memory, per process: after a restart, new messages may take turns beside
 * those of messages put back before it, and the bind's own cap spaces them.
 */
export class SenderPacing {
  /** Per carrier and sender, when the next turn is free (ms since the epoch). */
  private readonly next = new Map<string, number>();

  constructor(private readonly senderTpsOf: (carrier: string) => number | undefined) {}

  /** Whether `carrier` caps its senders at all. */
  paces(carrier: string): boolean {
    return Boolean(this.senderTpsOf(carrier));
  }

  /**
   * When a message of `parts` submits from `from` through `carrier` may start: `turn` when the
   * message was given one before, else the next free turn (now when its sender has no cap).
   */
  startOf(carrier: string, from: string, parts: number, turn?: number, now = Date.now()): number {
    const perSecond = this.senderTpsOf(carrier);
    if (!perSecond) return now;
    const key = `${carrier}\u0000${from}`;
    const free = this.next.get(key) ?? 0;
    const start = Math.max(now, turn ?? free);
    this.next.set(key, Math.max(free, start + (parts * 1000) / perSecond));
    if (this.next.size > 10_000) this.forget(now);
    return start;
  }

  /** Drops senders whose turns are all past: they start afresh, as if never seen. */
  private forget(now: number): void {
    for (const [key, free] of this.next) if (free <= now) this.next.delete(key);
  }
}
