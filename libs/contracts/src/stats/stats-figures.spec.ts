import { pctChange, rankRows, rate, rateDelta } from './stats-figures';

describe('stats figures', () => {
  it('gives null rates on a zero denominator and null changes against zero', () => {
    expect(rate(1, 0)).toBeNull();
    expect(rate(1, 4)).toBe(0.25);
    expect(pctChange(3, 0)).toBeNull();
    expect(pctChange(3, 2)).toBe(0.5);
    expect(rateDelta(0.5, null)).toBeNull();
    expect(rateDelta(0.5, 0.25)).toBe(0.25);
  });

  it('ranks descending, undefined rates last, ties by key', () => {
    const rows = [
      { key: 'b', metric: 1 },
      { key: 'z', metric: null },
      { key: 'a', metric: 1 },
      { key: 'c', metric: 3 },
    ];
    expect(
      rankRows(
        rows,
        (r) => r.metric,
        (r) => r.key,
      ).map((r) => r.key),
    ).toEqual(['c', 'a', 'b', 'z']);
  });
});
