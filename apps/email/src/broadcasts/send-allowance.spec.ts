import { sendQuotaOf } from './send-allowance';

describe(sendQuotaOf.name, () => {
  it('is unlimited by default: every recipient allowed, limited by none', () => {
    expect(sendQuotaOf(12_345, { daily: 0, monthly: 0 }, { daily: 9, monthly: 9 })).toEqual({
      recipients: 12_345,
      allowed: 12_345,
      limited_by: 'none',
    });
  });

  it('allows all while the tightest window has room', () => {
    expect(sendQuotaOf(500, { daily: 1000, monthly: 0 }, { daily: 400, monthly: 0 })).toEqual({
      recipients: 500,
      allowed: 500,
      limited_by: 'none',
    });
  });

  it('cuts a part-covered send to whole batches of 1,000 and names the tighter window', () => {
    expect(
      sendQuotaOf(5000, { daily: 10_000, monthly: 100_000 }, { daily: 7500, monthly: 20_000 }),
    ).toEqual({
      recipients: 5000,
      allowed: 2000,
      limited_by: 'daily',
      limit: 10_000,
      remaining: 2500,
    });
  });

  it('refuses an audience larger than the whole allowance: 0, never a part', () => {
    expect(sendQuotaOf(5000, { daily: 0, monthly: 4000 }, { daily: 0, monthly: 0 })).toEqual({
      recipients: 5000,
      allowed: 0,
      limited_by: 'monthly',
      limit: 4000,
      remaining: 4000,
    });
  });

  it('refuses an audience larger than the daily allowance, however much the month has left', () => {
    expect(
      sendQuotaOf(3500, { daily: 3000, monthly: 100_000 }, { daily: 0, monthly: 98_000 }),
    ).toEqual({
      recipients: 3500,
      allowed: 0,
      limited_by: 'daily',
      limit: 3000,
      remaining: 3000,
    });
  });
});
