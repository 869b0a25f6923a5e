import { Logger } from '@nestjs/common';
import { EmailTrackingSubjects } from '@switchboard/contracts';
import type { RequestContext, TrackingHit } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';

/** Hits one transport request carries at most. */
const BATCH = 500;
/** How long a hit waits for others before its batch goes (the answer never waits for this). */
const GATHER_MS = 5;
/** Hits waiting or in flight beyond which answers wait for the batches ahead (backpressure). */
const MAX_UNSENT = 20_000;
/** A batch the email service could not take is offered again this often, with back-off. */
const ATTEMPTS = 4;

/**
 * The opens and clicks the gateway answered, handed to the email service in batches (ADR 19):
 * one transport request per few hundred hits instead of one per hit, so a pixel costs the
 * gateway an HMAC and an array push. The email service answers a batch once it is committed. A
 * batch is retried with back-off when the service is away; what is still unsent when the
 * gateway stops is sent before it closes.
 */
export class TrackingHitQueue {
  private readonly logger = new Logger('EmailTracking');
  private waiting: TrackingHit[] = [];
  private timer?: NodeJS.Timeout;
  private unsent = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly services: ServiceClient,
    private readonly context: () => RequestContext,
  ) {}

  /** Queues a hit; a promise only when too many are unsent (the caller then waits for it). */
  add(hit: TrackingHit): Promise<void> | undefined {
    this.waiting.push(hit);
    this.unsent++;
    if (this.waiting.length >= BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
    if (this.unsent <= MAX_UNSENT) return undefined;
    return Promise.race(this.inFlight).then(() => undefined);
  }

  /** Sends everything queued and waits for every batch in flight. */
  async drain(): Promise<void> {
    this.flush();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.waiting.length > 0) {
      const hits = this.waiting.splice(0, BATCH);
      const sent = this.send(hits).finally(() => {
        this.unsent -= hits.length;
        this.inFlight.delete(sent);
      });
      this.inFlight.add(sent);
    }
  }

  private async send(hits: TrackingHit[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.services.send(EmailTrackingSubjects.RecordHits, { hits }, this.context());
        return;
      } catch (err) {
        if (attempt >= ATTEMPTS) {
          this.logger.warn({ err }, `${hits.length} open or click hit(s) not recorded`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }
}
