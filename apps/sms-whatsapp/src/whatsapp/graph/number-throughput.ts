import { TokenBucket } from '../../carriers/token-bucket';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Meta's per-number throughput (80 messages/s by default): one token bucket per
 * `phone_number_id`, its waiters served first come, first served. A FIFO chain per number keeps
 * one timer per number however many sends wait, instead of every waiter polling the bucket.
 */
export class NumberThroughput {
  private readonly lanes = new Map<string, { bucket: TokenBucket; tail: Promise<void> }>();

  constructor(private readonly messagesPerSecond: number) {}

  /** Resolves when the number may send one more message. */
  acquire(phoneNumberId: string): Promise<void> {
    let lane = this.lanes.get(phoneNumberId);
    if (!lane) {
      lane = { bucket: new TokenBucket(this.messagesPerSecond), tail: Promise.resolve() };
      this.lanes.set(phoneNumberId, lane);
    }
    const { bucket } = lane;
    const turn = lane.tail.then(async () => {
      for (let wait = bucket.take(); wait > 0; wait = bucket.take()) await sleep(wait);
    });
    lane.tail = turn;
    return turn;
  }
}
