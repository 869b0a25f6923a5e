import fc from 'fast-check';
import {
  latencyQuantiles,
  mergeSketches,
  sketchFromStored,
  sketchIndex,
  sketchOf,
  sketchQuantile,
  sketchValue,
} from './latency-sketch';

describe('latency sketch', () => {
  it('answers every quantile within 5 % of the exact value (or the whole millisecond it is rounded to)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 2, max: 10_000_000 }), { minLength: 1, maxLength: 300 }),
        fc.constantFrom(0.5, 0.95, 0.99),
        (values, q) => {
          const sorted = [...values].sort((a, b) => a - b);
          const exact = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
          const estimate = sketchQuantile(sketchOf(values), q) as number;
          expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(Math.max(1, 0.05 * exact));
        },
      ),
    );
  });

  it('merges by addition: the merge of two sketches is the sketch of both sets', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1_000_000)), fc.array(fc.nat(1_000_000)), (a, b) => {
        expect(mergeSketches(sketchOf(a), sketchOf(b))).toEqual(
          Array.from(
            { length: Math.max(sketchOf(a).length, sketchOf(b).length) },
            (_, i) => sketchOf([...a, ...b])[i] ?? 0,
          ),
        );
      }),
    );
  });

  it('puts 1 ms and below in the first bucket and caps the last', () => {
    expect(sketchIndex(0)).toBe(0);
    expect(sketchIndex(1)).toBe(0);
    expect(sketchIndex(1e12)).toBe(199);
    expect(sketchValue(0)).toBe(1);
  });

  it('omits an empty family and gives p50, p95, p99 otherwise', () => {
    expect(latencyQuantiles(null)).toBeUndefined();
    expect(latencyQuantiles([0, 0])).toBeUndefined();
    expect(latencyQuantiles(sketchOf([100, 100, 100, 5000]))).toEqual({
      p50_ms: expect.closeTo(100, -1),
      p95_ms: expect.closeTo(5000, -3),
      p99_ms: expect.closeTo(5000, -3),
    });
  });
});

describe(sketchFromStored.name, () => {
  it('reads the stored form (first bucket, counts) back into the full array', () => {
    expect(sketchFromStored([3, [1, 0, 2]])).toEqual([0, 0, 0, 1, 0, 2]);
    expect(sketchFromStored(null)).toBeNull();
  });
});
