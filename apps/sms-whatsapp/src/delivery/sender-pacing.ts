import { KeyedSemaphore } from '@switchboard/platform';

/**
 * When each message of a sender with a throughput cap (`sender_tps=`) may be submitted, and how
 * many of its messages may hold places in the bind's window: turns handed out in the order asked,
 * one per part, `1000 / senderTps` ms apart, and at most a tenth of a second's worth of its
 * messages (at least one) handed to the bind at once. The submit runner waits for a turn that is
 * close without taking a slot of the window, and puts a message whose turn is further off back
 * in the queue until then, keeping the turn in its payload: a sender with a long backlog holds
 * neither the window nor the workers, so other senders on the same carrier are not held up behind
 * it. The bind's queue enforces the cap itself; when the bind falls behind the turns (a throttle
 * pause, a reconnection), the per-sender limit keeps the late messages out of the window.
 *
 * Turns are kept in memory, per process: after a restart, new messages may take turns beside
 * those of messages put back before it, and the bind's own cap spaces them.
 */
export class SenderPacing {
  /** Per carrier and sender, when the next turn is free (ms since the epoch). */
  private readonly next = new Map<string, number>();
  /** Above this many senders, those whose turns are all past are forgotten. */
  private sweepAbove = 10_000;
  /** Per carrier that caps its senders: each sender's places in the bind's window. */
  private readonly places = new Map<string, KeyedSemaphore>();

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
    const start = Math.max(now, Number.isFinite(turn) ? (turn as number) : free);
    this.next.set(key, Math.max(free, start + (parts * 1000) / perSecond));
    if (this.next.size > this.sweepAbove) this.forget(now);
    return start;
  }

  /** Runs `submit` once `from` has a place of its own in `carrier`'s window (at once: no cap). */
  withPlace<T>(carrier: string, from: string, submit: () => Promise<T>): Promise<T> {
    const perSecond = this.senderTpsOf(carrier);
    if (!perSecond) return submit();
    let places = this.places.get(carrier);
    if (!places) {
      places = new KeyedSemaphore(Math.max(1, Math.ceil(perSecond / 10)));
      this.places.set(carrier, places);
    }
    return places.use(from, submit);
  }

  /** Drops senders whose turns are all past: they start afresh, as if never seen. */
  private forget(now: number): void {
    for (const [key, free] of this.next) if (free <= now) this.next.delete(key);
    // Still as many with turns ahead: look again only once they have doubled.
    this.sweepAbove = Math.max(10_000, this.next.size * 2);
  }
}
