/**
 * A throughput cap: `rate` tokens a second, at most `burst` saved up. A bind takes one per
 * `submit_sm`, so a carrier's contracted TPS is never exceeded even after an idle spell.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt = Date.now();

  constructor(
    private readonly rate: number,
    private readonly burst = Math.max(1, Math.ceil(rate / 10)),
  ) {
    this.tokens = burst;
  }

  /** Takes a token if there is one; else returns the ms until there will be. */
  take(now = Date.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.rate) / 1000);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
