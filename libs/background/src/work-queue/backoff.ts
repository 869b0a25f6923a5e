/** Exponential back-off: `baseMs` after the first failure, doubling each time, never above `capMs`. */
export function backoffMs(failures: number, baseMs: number, capMs: number): number {
  // 2^30 already exceeds any sensible cap; clamping the exponent keeps the product finite.
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(capMs, baseMs * 2 ** exponent);
}
