import { finalOf } from './message-finals';
import type { ReceiptTarget } from './receipts.repository';

const at = new Date('2026-11-28T10:00:00Z');
const timedOut = { description: 'no final receipt came from the carrier within 60 s' };
const target = (
  part_stats: ReceiptTarget['part_stats'],
  parts = part_stats.length,
): ReceiptTarget => ({
  id: 'sms_1',
  workspace_id: 'ws_1',
  status: 'sent',
  from_address: 'Acme',
  to_address: '+31612340001',
  tags: [],
  metadata: {},
  carrier: 'nl',
  sent_at: at,
  parts,
  part_stats,
});
const rejected = { stat: 'REJECTD', err: '0B1', final: true };
const delivered = { stat: 'DELIVRD', err: null, final: true };
const enroute = { stat: 'ENROUTE', err: null, final: false };

describe(finalOf.name, () => {
  it('waits for every part, then takes the worst', () => {
    expect(finalOf(target([rejected, enroute]), at)).toBeUndefined();
    expect(finalOf(target([delivered], 2), at)).toBeUndefined();
    expect(finalOf(target([delivered, rejected]), at)).toMatchObject({
      status: 'failed',
      carrier_code: '0B1',
    });
  });

  it('timed out, keeps a part that failed and takes the rest as expired', () => {
    expect(finalOf(target([rejected, enroute]), at, timedOut)).toMatchObject({
      status: 'failed',
      carrier_code: '0B1',
    });
    expect(finalOf(target([rejected], 2), at, timedOut)).toMatchObject({ status: 'failed' });
    expect(finalOf(target([delivered, enroute]), at, timedOut)).toEqual({
      id: 'sms_1',
      status: 'expired',
      at,
      code: 'unknown',
      description: timedOut.description,
      carrier_code: null,
    });
    expect(finalOf(target([], 1), at, timedOut)).toMatchObject({ status: 'expired' });
  });
});
