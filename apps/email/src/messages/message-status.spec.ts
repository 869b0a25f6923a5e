import { aggregateStatus } from './message-status';
import type { RecipientCounts } from './message-status';

const none: RecipientCounts = {
  accepted: 0,
  processed: 0,
  deferred: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  rejected: 0,
};
const live = { canceled: false, scheduled: false };

describe('aggregateStatus', () => {
  it('is canceled or scheduled whatever the recipients say', () => {
    expect(aggregateStatus({ ...none, accepted: 2 }, { canceled: true, scheduled: true })).toBe(
      'canceled',
    );
    expect(aggregateStatus({ ...none, accepted: 2 }, { canceled: false, scheduled: true })).toBe(
      'scheduled',
    );
  });

  it('follows the least advanced recipient while any is on its way', () => {
    expect(aggregateStatus({ ...none, accepted: 1, delivered: 3 }, live)).toBe('accepted');
    expect(aggregateStatus({ ...none, processed: 1, deferred: 1 }, live)).toBe('processed');
    expect(aggregateStatus({ ...none, deferred: 1, delivered: 1 }, live)).toBe('deferred');
  });

  it('names the one outcome every recipient reached', () => {
    expect(aggregateStatus({ ...none, delivered: 3 }, live)).toBe('delivered');
    expect(aggregateStatus({ ...none, bounced: 2 }, live)).toBe('bounced');
    expect(aggregateStatus({ ...none, rejected: 1 }, live)).toBe('rejected');
  });

  it('is partial_failure when some were delivered and others failed', () => {
    expect(aggregateStatus({ ...none, delivered: 1, bounced: 1 }, live)).toBe('partial_failure');
    expect(aggregateStatus({ ...none, delivered: 2, rejected: 1 }, live)).toBe('partial_failure');
  });

  it('is bounced when nothing was delivered and some bounced beside rejections', () => {
    expect(aggregateStatus({ ...none, bounced: 1, rejected: 2 }, live)).toBe('bounced');
  });
});
