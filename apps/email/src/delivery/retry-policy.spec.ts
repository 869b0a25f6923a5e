import { nextAttemptDelaySeconds, retryWindowOver } from './retry-policy';

describe('retry policy', () => {
  it('doubles the delay per attempt from the base, up to an hour', () => {
    expect([1, 2, 3, 4].map((attempt) => nextAttemptDelaySeconds(attempt, 60))).toEqual([
      60, 120, 240, 480,
    ]);
    expect(nextAttemptDelaySeconds(30, 60)).toBe(3600);
  });

  it('gives a recipient up once the window since its first deferral is over', () => {
    const first = new Date('2026-01-01T00:00:00Z');
    expect(retryWindowOver(first, new Date('2026-01-01T00:59:59Z'), 60)).toBe(false);
    expect(retryWindowOver(first, new Date('2026-01-01T01:00:00Z'), 60)).toBe(true);
  });
});
