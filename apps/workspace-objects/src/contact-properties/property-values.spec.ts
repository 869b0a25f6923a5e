import { propertyValue } from './property-values';

describe(propertyValue.name, () => {
  it('normalizes datetimes to UTC to the second and refuses a bare date or a local time', () => {
    expect(propertyValue('datetime', '2024-01-15T11:30:00.987+02:00')).toEqual({
      value: '2024-01-15T09:30:00Z',
    });
    expect(propertyValue('datetime', '2024-01-15')).toHaveProperty('problem');
    expect(propertyValue('datetime', '2024-01-15T11:30:00')).toHaveProperty('problem');
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
