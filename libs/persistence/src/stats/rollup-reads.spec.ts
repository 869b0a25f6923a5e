import { splitOf } from './rollup-reads';

describe('splitOf', () => {
  it('reads whole UTC days daily and the edges hourly', () => {
    const window = {
      start: new Date('2026-03-09T23:00:00Z'),
      end: new Date('2026-03-12T23:00:00Z'),
    };
    expect(splitOf(window)).toEqual({
      dayStart: new Date('2026-03-10T00:00:00Z'),
      dayEnd: new Date('2026-03-12T00:00:00Z'),
    });
  });

  it('reads a window without a whole UTC day hourly only', () => {
    const window = {
      start: new Date('2026-03-09T23:00:00Z'),
      end: new Date('2026-03-10T23:00:00Z'),
    };
    expect(splitOf(window)).toEqual({ dayStart: window.end, dayEnd: window.end });
  });
});
