import { propertyValue } from './property-values';

describe(propertyValue.name, () => {
  it('normalizes datetimes to UTC to the second and refuses a bare date or a local time', () => {
    expect(propertyValue('datetime', '2024-01-15T11:30:00.987+02:00')).toEqual({
      value: '2024-01-15T09:30:00Z',
    });
    expect(propertyValue('datetime', '2024-01-15')).toHaveProperty('problem');
    expect(propertyValue('datetime', '2024-01-15T11:30:00')).toHaveProperty('problem');
    // Instants that do not exist are refused, not rolled forward; so are years before 0001.
    for (const impossible of [
      '2024-02-30T00:00:00Z',
      '2023-02-29T12:00:00Z',
      '2024-01-01T24:00:00Z',
      '0000-01-01T00:00:00+01:00',
    ])
      expect([impossible, propertyValue('datetime', impossible)]).toEqual([
        impossible,
        { problem: expect.any(String) },
      ]);
    expect(propertyValue('datetime', '2024-02-29T23:59:59-01:00')).toEqual({
      value: '2024-03-01T00:59:59Z',
    });
  });

  it('checks each type, and strings up to 500 characters', () => {
    expect(propertyValue('string', 'x'.repeat(500))).toEqual({ value: 'x'.repeat(500) });
    expect(propertyValue('string', 'x'.repeat(501))).toHaveProperty('problem');
    expect(propertyValue('number', 3.5)).toEqual({ value: 3.5 });
    expect(propertyValue('number', '3')).toHaveProperty('problem');
    expect(propertyValue('number', Number.NaN)).toHaveProperty('problem');
    expect(propertyValue('boolean', false)).toEqual({ value: false });
    expect(propertyValue('boolean', 'true')).toHaveProperty('problem');
  });
});
