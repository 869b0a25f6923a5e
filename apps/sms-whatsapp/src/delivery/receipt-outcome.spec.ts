import { receiptOutcome, worstStatus } from './receipt-outcome';

describe(receiptOutcome.name, () => {
  it.each([
    ['DELIVRD', 'delivered', null],
    ['EXPIRED', 'expired', 'unreachable'],
    ['UNDELIV', 'undelivered', 'unreachable'],
    ['REJECTD', 'failed', 'blocked_by_carrier'],
    ['DELETED', 'failed', 'unknown'],
    ['UNKNOWN', 'failed', 'unknown'],
    ['FAILED', 'failed', 'unknown'],
    ['DELIVERED', 'delivered', null],
    ['UNDELIVERABLE', 'undelivered', 'unreachable'],
    ['UNDELIVERED', 'undelivered', 'unreachable'],
    ['SKIPPED', 'failed', 'unknown'],
    ['rejected', 'failed', 'blocked_by_carrier'],
  ])('maps %s to %s', (stat, status, code) => {
    expect(receiptOutcome(stat)).toMatchObject({ final: true, status, code });
  });

  it('keeps ACCEPTD and ENROUTE (and anything unknown) as steps, not outcomes', () => {
    expect(receiptOutcome('ACCEPTD')).toEqual({ final: false, event: 'sms.carrier_accepted' });
    expect(receiptOutcome('enroute')).toEqual({ final: false, event: 'sms.enroute' });
    expect(receiptOutcome('ACCEPTED')).toEqual({ final: false, event: 'sms.carrier_accepted' });
    expect(receiptOutcome('SCHEDLD').final).toBe(false);
  });
});

describe(worstStatus.name, () => {
  it('lets the worst part decide the message', () => {
    expect(worstStatus(['delivered', 'delivered'])).toBe('delivered');
    expect(worstStatus(['delivered', 'expired'])).toBe('expired');
    expect(worstStatus(['undelivered', 'delivered', 'failed'])).toBe('failed');
  });
});
