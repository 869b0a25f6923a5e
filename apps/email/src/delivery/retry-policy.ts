/**
 * When a deferred recipient is tried again: exponential back-off from the base delay, doubling
 * per attempt up to an hour; after the retry window since its first deferral it is given up
 * (bounced, soft), as an MTA's queue lifetime does.
 */
export function nextAttemptDelaySeconds(attempt: number, baseSeconds: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 20));
  return Math.min(3600, baseSeconds * 2 ** exponent);
}

export function retryWindowOver(
  firstDeferredAt: Date,
  now: Date,
  retryForMinutes: number,
): boolean {
  return now.getTime() - firstDeferredAt.getTime() >= retryForMinutes * 60_000;
}
