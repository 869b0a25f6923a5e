import type { AppError } from '@switchboard/platform';
import { numberFilters } from './number-filters';

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return (err as AppError).details?.map((detail) => detail.param);
  }
  return [];
};

describe(numberFilters.name, () => {
  it('anchors a prefix after the dial code with a country, at the start of the digits without', () => {
    const withCountry = numberFilters('TRUE', [], { country_code: 'us', prefix: '212' });
    expect(withCountry.filter.sql).toBe('TRUE AND n.number LIKE $1 AND n.country_code = $2');
    expect(withCountry.filter.params).toEqual(['+1212%', 'US']);
    const without = numberFilters('TRUE', [], { prefix: '4420' });
    expect(without.filter.sql).toBe("TRUE AND ltrim(n.number, '+') LIKE $1");
  });

  it('limits a prefix to 10 digits with a country and 15 without', () => {
    expect(
      problemsOf(() => numberFilters('TRUE', [], { country_code: 'GB', prefix: '1'.repeat(11) })),
    ).toEqual(['prefix']);
    expect(problemsOf(() => numberFilters('TRUE', [], { prefix: '1'.repeat(15) }))).toEqual([]);
    expect(problemsOf(() => numberFilters('TRUE', [], { prefix: '1'.repeat(16) }))).toEqual([
      'prefix',
    ]);
  });

  it('collects every problem: an unknown country and a grouped number without its country code', () => {
    expect(
      problemsOf(() => numberFilters('TRUE', [], { country_code: 'ZZ', number: '202 555 0188' })),
    ).toEqual(['country_code', 'number']);
  });

  it('binds cursors to the filters, capabilities in one order', () => {
    const a = numberFilters('TRUE', [], { capabilities: ['voice', 'sms'] });
    const b = numberFilters('TRUE', [], { capabilities: ['sms', 'voice', 'sms'] });
    expect(a.bound).toEqual(b.bound);
    expect(a.filter.params).toEqual([['sms', 'voice']]);
  });
});
