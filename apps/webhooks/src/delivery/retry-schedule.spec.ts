import { delayMs, nextRetryDelayMs, retryAfterMs } from './retry-schedule';

describe('retry schedule', () => {
  const schedule = ['5s', '30s', '2m', '1h'].map(delayMs);

  it('reads s, m, h and ms delays and refuses anything else', () => {
    expect(schedule).toEqual([5000, 30_000, 120_000, 3_600_000]);
    expect(delayMs('250ms')).toBe(250);
    expect(() => delayMs('5 minutes')).toThrow('is not a delay');
  });

  it('gives the next delay per failed attempt, then gives up', () => {
    expect(nextRetryDelayMs(schedule, 1)).toBe(5000);
    expect(nextRetryDelayMs(schedule, 4)).toBe(3_600_000);
    expect(nextRetryDelayMs(schedule, 5)).toBeUndefined();
  });

  it('honours a longer Retry-After, up to an hour or the longest delay of the schedule', () => {
    expect(nextRetryDelayMs(schedule, 1, 60_000)).toBe(60_000);
    expect(nextRetryDelayMs(schedule, 1, 1000)).toBe(5000);
    expect(nextRetryDelayMs(schedule, 1, 86_400_000)).toBe(3_600_000);
    expect(nextRetryDelayMs([100, 100], 1, 2000)).toBe(2000);
    expect(nextRetryDelayMs(['12h'].map(delayMs), 1, 86_400_000)).toBe(43_200_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
