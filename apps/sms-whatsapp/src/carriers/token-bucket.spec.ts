import fc from 'fast-check';
import { TokenBucket } from './token-bucket';

/** Takes tokens as fast as the bucket allows from `start` until `until`; answers when each was taken. */
function drain(bucket: TokenBucket, start: number, until: number, step = 1): number[] {
  const times: number[] = [];
  for (let now = start; now < until; now += step) while (bucket.take(now) === 0) times.push(now);
  return times;
}

const mostInAnySecond = (times: number[]) =>
  Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));

describe(TokenBucket.name, () => {
  it('lets a burst through at once, then one token per 1/rate seconds', () => {
    const bucket = new TokenBucket(50, 5);
    const times = drain(bucket, 0, 500);
    expect(times.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(times.slice(5, 8)).toEqual([20, 40, 60]);
  });

  it('never lets more than rate through in any second, the burst included', () => {
    const bucket = new TokenBucket(50, 5);
    const times = drain(bucket, 0, 5000);
    expect(mostInAnySecond(times)).toBe(50);
    // Sustained: the full rate, not rate minus the burst.
    expect(times.filter((t) => t >= 1000 && t < 5000)).toHaveLength(200);
  });

  it('says how long until a token without taking one', () => {
    const bucket = new TokenBucket(2);
    expect(bucket.wait(0)).toBe(0);
    expect(bucket.wait(0)).toBe(0);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.wait(0)).toBe(500);
    expect(bucket.take(499)).toBeGreaterThan(0);
    expect(bucket.take(500)).toBe(0);
  });

  it('is idle once full again and a second has passed since its last token', () => {
    const bucket = new TokenBucket(2);
    expect(bucket.idle(0)).toBe(true);
    bucket.take(0);
    expect(bucket.idle(500)).toBe(false);
    expect(bucket.idle(1000)).toBe(true);
  });

  it('answers how long until the next token when there is none', () => {
    const bucket = new TokenBucket(10, 1);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.take(30)).toBe(70);
    expect(bucket.take(100)).toBe(0);
  });

  it('holds the cap for any rate, burst and pattern of idle spells', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 5 }),
        (rate, burst, idleSpells) => {
          const bucket = new TokenBucket(rate, burst);
          const times: number[] = [];
          let now = 0;
          for (const idle of idleSpells) {
            now += idle;
            times.push(...drain(bucket, now, now + 1500, 7));
            now += 1500;
          }
          return mostInAnySecond(times) <= rate;
        },
      ),
      { numRuns: 60 },
    );
  });
});
