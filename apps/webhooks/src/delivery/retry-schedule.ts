const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
/** The longest wait a receiver's Retry-After may ask for, unless the schedule waits longer. */
const RETRY_AFTER_CAP_MS = 3_600_000;

/** `5s`, `2m`, `1h`, `250ms` in milliseconds. */
export function delayMs(entry: string): number {
  const match = /^([1-9]\d*)(ms|s|m|h)$/.exec(entry.trim());
  if (!match) throw new Error(`"${entry}" is not a delay such as 5s, 2m or 1h`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * When attempt `attempt` (1 for the first) failed: the next attempt's delay, or undefined when
 * the schedule is spent and the event is given up for this endpoint. A receiver's `Retry-After`
 * (429, 503) is honoured when it asks for longer than the schedule, up to an hour or the
 * schedule's longest delay if that is longer, so a receiver cannot park a delivery for days.
 */
export function nextRetryDelayMs(
  schedule: readonly number[],
  attempt: number,
  retryAfterMs?: number,
): number | undefined {
  const planned = schedule[attempt - 1];
  if (planned === undefined) return undefined;
  if (retryAfterMs === undefined) return planned;
  return Math.max(planned, Math.min(retryAfterMs, Math.max(RETRY_AFTER_CAP_MS, ...schedule)));
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
