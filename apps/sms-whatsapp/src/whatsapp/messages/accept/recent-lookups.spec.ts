import { RecentLookups } from './recent-lookups';

describe(RecentLookups.name, () => {
  afterEach(() => jest.useRealTimers());

  it('remembers what was found for two seconds, and never a miss', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const memo = new RecentLookups<string>();
    const lookup = jest.fn(() => Promise.resolve('found'));
    const miss = jest.fn(() => Promise.resolve(undefined));
    expect(await memo.get('a', lookup)).toBe('found');
    expect(await memo.get('a', lookup)).toBe('found');
    expect(lookup).toHaveBeenCalledTimes(1);
    jest.setSystemTime(1_002_001);
    await memo.get('a', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
    await memo.get('b', miss);
    await memo.get('b', miss);
    expect(miss).toHaveBeenCalledTimes(2);
  });
});
