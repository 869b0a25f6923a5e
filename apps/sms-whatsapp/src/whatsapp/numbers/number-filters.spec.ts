import { numberFilters } from './number-filters';

describe(numberFilters.name, () => {
  it('normalises the phone number and sorts the statuses', () => {
    const { filter, bound } = numberFilters('ws_1', {
      limit: 25,
      phone_number: '+31 6 1234 0001',
      status: ['pending', 'connected', 'pending'],
    });
    expect(filter.params).toEqual(['ws_1', '+31612340001', ['connected', 'pending']]);
    expect(bound).toMatchObject({ phone: '+31612340001', statuses: ['connected', 'pending'] });
  });

  it('matches a phone number it cannot normalise exactly, and scope=system to nothing', () => {
    const { filter } = numberFilters('ws_1', { limit: 25, phone_number: 'abc', scope: 'system' });
    expect(filter.params).toEqual(['ws_1', 'abc', 'system']);
    expect(filter.sql).toContain("$3::text = 'workspace'");
  });
});
