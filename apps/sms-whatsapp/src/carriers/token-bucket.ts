/**
 * A throughput cap: `rate` tokens a second, at most `burst` saved up, and never more than `rate`
 * taken in any one second. A bind takes one per `submit_sm`, so a carrier's contracted TPS is
 * never exceeded, even after an idle spell: a bucket alone lets `burst` more through in the
 * second that follows one (55 in a second at 50 TPS).
 */
export class TokenBucket {
  private tokens: number;
  // Full at the first take, whatever its clock.
  private refilledAt = -Infinity;
  /** When the last `perSecond` tokens were taken: a ring, its oldest entry at `oldest`. */
  private readonly taken: number[] = [];
  private oldest = 0;
  private lastTaken = -Infinity;
  private readonly perSecond: number;

  constructor(
    private readonly rate: number,
    private readonly burst = Math.max(1, Math.ceil(rate / 10)),
  ) {
    this.tokens = burst;
    this.perSecond = Math.max(1, Math.floor(rate));
  }

  /** Takes a token if there is one; else returns the ms until there will be. */
  take(now = Date.now()): number {
    const wait = this.wait(now);
    if (wait > 0) return wait;
    this.tokens -= 1;
    this.lastTaken = now;
    if (this.taken.length < this.perSecond) this.taken.push(now);
    else {
      this.taken[this.oldest] = now;
      this.oldest = (this.oldest + 1) % this.perSecond;
    }
    return 0;
  }

  /** Whether it is as if new: full again, nothing taken in the last second. */
  idle(now = Date.now()): boolean {
    return now - this.lastTaken >= 1000 && this.wait(now) === 0 && this.tokens >= this.burst;
  }

  /** The ms until a token can be taken (0: now), taking none. */
  wait(now = Date.now()): number {
    if (this.taken.length === this.perSecond) {
      const secondFull = this.taken[this.oldest] + 1000 - now;
      if (secondFull > 0) return secondFull;
    }
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
    return 0;
  }
}
