import type { PDU, PduFields } from 'smpp';
import { CarrierSubmitError } from './sms-carrier';
import { classifyCommandStatus, ESME_ROK, THROTTLING_STATUSES } from './smpp-status';
import { TokenBucket } from './token-bucket';

interface QueuedSubmit {
  /** Arrival order: a submit sent back by a throttle goes in again at its place. */
  order: number;
  /** The message it is a part of: a failed part withdraws its not-yet-sent siblings. */
  group: number;
  fields: PduFields;
  queuedAt: number;
  throttles: number;
  settled: boolean;
  timer?: NodeJS.Timeout;
  resolve(messageId: string): void;
  reject(error: CarrierSubmitError): void;
}

export interface SubmitQueueOptions {
  carrier: string;
  window: number;
  tps: number;
  /** Submits per second at most from any one `source_addr` (a carrier's cap per sender). */
  senderTps?: number;
  submitTimeoutMs: number;
  /** First pause after a throttling answer; it doubles while they continue (to 5 s). */
  throttlePauseMs?: number;
  /** Throttling answers one submit may get before it is handed back to the pipeline. */
  maxThrottles?: number;
  /**
   * A submit went unanswered past `submitTimeoutMs`: the link is taken for broken and the queue
   * stops sending on it (the bind drops it and reconnects). Sending on would put more than the
   * window in the carrier's hands, and a late answer to the one given up would be lost, its
   * message sent again.
   */
  onResponseTimeout?: () => void;
}

/** Without a cap per sender, the submit at the head of the queue goes next. */
const QUEUE_HEAD = { at: 0 } as const;

/** Sends one `submit_sm`; false when the connection cannot take it now. */
export type SendSubmit = (fields: PduFields, onResponse: (pdu: PDU) => void) => boolean;

/**
 * The submits of one bind: first in, first out, at most `window` awaiting their response, at
 * most `tps` a second, and at most `senderTps` a second from each sender. A sender at its cap
 * waits without holding up the others behind it, in its own order. A throttling answer
 * (ESME_RTHROTTLED, ESME_RMSGQFUL) pauses the whole queue and puts that submit back at its
 * place, so the carrier still receives them in order.
 */
export class SubmitQueue {
  private readonly queue: QueuedSubmit[] = [];
  private readonly inFlight = new Set<QueuedSubmit>();
  private readonly bucket: TokenBucket;
  /** Per `source_addr`, when `senderTps` is set. */
  private readonly senderBuckets = new Map<string, TokenBucket>();
  private send: SendSubmit | null = null;
  private pausedUntil = 0;
  private throttlePause = 0;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = 0;
  private nextOrder = 0;
  private nextGroup = 0;

  constructor(private readonly options: SubmitQueueOptions) {
    this.bucket = new TokenBucket(options.tps);
  }

  get sending(): number {
    return this.inFlight.size;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Queues the parts of one message, in order; resolves with their message ids. */
  submit(parts: PduFields[]): Promise<string[]> {
    const group = this.nextGroup++;
    const promises = parts.map(
      (fields) =>
        new Promise<string>((resolve, reject) => {
          this.queue.push({
            order: this.nextOrder++,
            group,
            fields,
            queuedAt: Date.now(),
            throttles: 0,
            settled: false,
            resolve,
            reject,
          });
        }),
    );
    for (const promise of promises) promise.catch(() => this.withdraw(group));
    this.pump();
    return Promise.all(promises);
  }

  /** The connection is bound (sends through `send`) or not (null: submits wait). */
  attach(send: SendSubmit | null): void {
    this.send = send;
    this.pump();
  }

  /** The connection was lost: what awaited a response may or may not have reached the carrier. */
  failInFlight(reason: string): void {
    for (const entry of [...this.inFlight]) this.fail(entry, this.temporary(reason));
  }

  /** Fails the submits that waited longer than `olderThanMs` without a bind to go through. */
  expireWaiting(olderThanMs: number, reason: string): void {
    const limit = Date.now() - olderThanMs;
    for (const entry of this.queue.filter((queued) => queued.queuedAt < limit))
      this.fail(entry, this.temporary(reason));
  }

  failAll(reason: string): void {
    this.failInFlight(reason);
    for (const entry of [...this.queue]) this.fail(entry, this.temporary(reason));
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
  }

  private pump(): void {
    while (this.send && this.queue.length > 0 && this.inFlight.size < this.options.window) {
      const paused = Math.max(this.pausedUntil - Date.now(), 0);
      if (paused > 0) return this.wakeIn(paused);
      const next = this.nextSendable();
      if (typeof next === 'number') return this.wakeIn(next);
      const wait = this.bucket.take();
      if (wait > 0) return this.wakeIn(wait);
      const entry = this.queue.splice(next.at, 1)[0];
      next.sender?.take();
      this.inFlight.add(entry);
      entry.timer = setTimeout(() => this.timedOut(entry), this.options.submitTimeoutMs);
      if (!this.send(entry.fields, (pdu) => this.answered(entry, pdu))) {
        clearTimeout(entry.timer);
        this.inFlight.delete(entry);
        this.requeue(entry);
        return;
      }
    }
  }

  /**
   * The first queued submit whose sender is under its cap (and that sender's bucket, to take
   * from once the bind's own cap allows), or the ms until one will be. Senders at their cap are
   * passed over whole, so each sender's submits still leave in their order.
   */
  private nextSendable(): { at: number; sender?: TokenBucket } | number {
    const perSender = this.options.senderTps;
    if (!perSender) return QUEUE_HEAD;
    if (this.senderBuckets.size > 1000) this.forgetIdleSenders();
    let soonest = Infinity;
    const waiting = new Set<string>();
    for (let at = 0; at < this.queue.length; at++) {
      const source = String(this.queue[at].fields.source_addr ?? '');
      if (waiting.has(source)) continue;
      let sender = this.senderBuckets.get(source);
      if (!sender) this.senderBuckets.set(source, (sender = new TokenBucket(perSender)));
      const wait = sender.wait();
      if (wait === 0) return { at, sender };
      waiting.add(source);
      soonest = Math.min(soonest, wait);
    }
    return soonest;
  }

  /** A sender idle for a second is as if new: its bucket goes. */
  private forgetIdleSenders(): void {
    const now = Date.now();
    for (const [source, bucket] of this.senderBuckets)
      if (bucket.idle(now)) this.senderBuckets.delete(source);
  }

  private answered(entry: QueuedSubmit, pdu: PDU): void {
    if (entry.settled) return;
    clearTimeout(entry.timer);
    this.inFlight.delete(entry);
    const status = pdu.command_status;
    if (status === ESME_ROK) {
      this.throttlePause = 0;
      entry.settled = true;
      entry.resolve(pdu.message_id ?? '');
    } else if (
      THROTTLING_STATUSES.has(status) &&
      ++entry.throttles <= (this.options.maxThrottles ?? 20)
    ) {
      this.throttlePause = Math.min(
        this.throttlePause ? this.throttlePause * 2 : (this.options.throttlePauseMs ?? 100),
        5000,
      );
      this.pausedUntil = Math.max(this.pausedUntil, Date.now() + this.throttlePause);
      this.requeue(entry);
    } else {
      const { name, temporary, code } = classifyCommandStatus(status);
      const error = new CarrierSubmitError(
        `${this.options.carrier} answered ${name} to submit_sm`,
        temporary,
        code,
        status,
        this.options.carrier,
      );
      this.fail(entry, error);
    }
    this.pump();
  }

  private timedOut(entry: QueuedSubmit): void {
    if (this.options.onResponseTimeout) this.send = null;
    this.fail(entry, this.temporary('no submit_sm_resp in time'));
    this.options.onResponseTimeout?.();
  }

  private requeue(entry: QueuedSubmit): void {
    const at = this.queue.findIndex((queued) => queued.order > entry.order);
    this.queue.splice(at === -1 ? this.queue.length : at, 0, entry);
  }

  private withdraw(group: number): void {
    for (const entry of this.queue.filter((queued) => queued.group === group))
      this.fail(entry, this.temporary('another part of the message failed'));
  }

  private fail(entry: QueuedSubmit, error: CarrierSubmitError): void {
    if (entry.settled) return;
    entry.settled = true;
    clearTimeout(entry.timer);
    this.inFlight.delete(entry);
    const at = this.queue.indexOf(entry);
    if (at !== -1) this.queue.splice(at, 1);
    entry.reject(error);
    this.pump();
  }

  private temporary(reason: string): CarrierSubmitError {
    const message = `${this.options.carrier}: ${reason}`;
    return new CarrierSubmitError(
      message,
      true,
      'provider_unavailable',
      undefined,
      this.options.carrier,
    );
  }

  /** Wakes the pump in `ms`, or sooner if a wake is already set for sooner. */
  private wakeIn(ms: number): void {
    const at = Date.now() + ms;
    if (this.wakeTimer && this.wakeAt <= at) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.pump();
    }, ms);
  }
}
