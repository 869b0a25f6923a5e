import fc from 'fast-check';
import {
  countryOf,
  internationalNumber,
  numberCandidates,
  stockableNumber,
} from './number-spelling';

describe('number spelling', () => {
  it('reads every international spelling of one number as the same E.164 number', () => {
    for (const spelling of [
      '+12025550188',
      '12025550188',
      '0012025550188',
      '+1 202 555 0188',
      '+1 (202) 555-0188',
    ])
      expect({ spelling, candidates: numberCandidates(spelling, undefined) }).toEqual({
        spelling,
        candidates: ['+12025550188'],
      });
  });

  it('refuses a grouped spelling without + or 00 unless the country is named', () => {
    expect(numberCandidates('202 555 0188', undefined)).toEqual({
      param: 'number',
      message: expect.stringContaining('leading + or 00'),
    });
    expect(numberCandidates('020 7946 0958', countryOf('gb'))).toContain('+442079460958');
  });

  it('reads bare digits with a country as national digits, and short ones as a short code', () => {
    expect(numberCandidates('12345', countryOf('US'))).toEqual(
      expect.arrayContaining(['+12345', '12345']),
    );
    // The SDK: a short code is matched on its bare digits, country_code only picks the country.
    expect(numberCandidates('12345', undefined)).toEqual(['+12345', '12345']);
    expect(numberCandidates('12025550188', undefined)).toEqual(['+12025550188']);
  });

  it('never throws on generated input, answering candidates or one problem', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(undefined, countryOf('GB')),
        (value, country) => {
          const result = numberCandidates(value, country);
          if (Array.isArray(result))
            for (const candidate of result) expect(candidate).toMatch(/^\+?\d{3,16}$/);
          else expect(result.param).toBe('number');
        },
      ),
      { seed: 18, numRuns: 500 },
    );
  });

  it('stocks E.164 numbers with their country, the main one of the dial code when unlisted', () => {
    expect(stockableNumber('+12025550188')).toEqual({ number: '+12025550188', country_code: 'US' });
    expect(stockableNumber('+447700900201')).toEqual({
      number: '+447700900201',
      country_code: 'GB',
    });
    expect(stockableNumber('+31612345678')).toEqual({ number: '+31612345678', country_code: 'NL' });
    for (const bad of ['447700900201', '+44 7700 900201', '+1', '+999123456789', ''])
      expect({ bad, stocked: stockableNumber(bad) }).toEqual({ bad, stocked: undefined });
  });

  it('takes a whole from/to number as international, with or without + or 00', () => {
    expect(internationalNumber('14155551234')).toBe('+14155551234');
    expect(internationalNumber('0014155551234')).toBe('+14155551234');
    expect(internationalNumber('anonymous')).toBeUndefined();
    expect(countryOf('zz')).toBeUndefined();
  });
});
