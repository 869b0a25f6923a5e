import { parseTimestamp } from './timestamp';

describe(parseTimestamp.name, () => {
  it('reads a date-time with a zone as its instant', () => {
    expect(parseTimestamp('2030-01-02T09:30:00.123+02:00')?.toISOString()).toBe(
      '2030-01-02T07:30:00.123Z',
    );
    expect(parseTimestamp('2030-01-02T09:30Z')?.toISOString()).toBe('2030-01-02T09:30:00.000Z');
  });

  it('refuses dates that do not exist and times without a zone', () => {
    for (const text of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T10:00:00'])
      expect(parseTimestamp(text)).toBeUndefined();
  });

  it('keeps years below 100 as written, not as 19xx', () => {
    expect(parseTimestamp('0050-06-15T00:00:00Z')?.toISOString()).toBe('0050-06-15T00:00:00.000Z');
    expect(parseTimestamp('0004-02-29T12:00:00Z')?.toISOString()).toBe('0004-02-29T12:00:00.000Z');
  });

  it('refuses an instant whose year in UTC is not four digits', () => {
    expect(parseTimestamp('9999-12-31T23:00:00-01:00')).toBeUndefined();
    expect(parseTimestamp('0001-01-01T00:30:00+01:00')).toBeUndefined();
    expect(parseTimestamp('9999-12-31T23:59:59Z')?.toISOString()).toBe('9999-12-31T23:59:59.000Z');
    expect(parseTimestamp('0001-01-01T00:00:00Z')?.toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });
});
