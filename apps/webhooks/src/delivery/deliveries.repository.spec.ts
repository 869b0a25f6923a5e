import type { OutboxEvent } from '@switchboard/platform';
import { webhookEventsOf } from './deliveries.repository';

const event = (id: string, type: string): OutboxEvent => ({
  id,
  type,
  workspaceId: 'ws_1',
  timestamp: '2026-11-27T10:00:00.000Z',
  data: {},
});

describe(webhookEventsOf.name, () => {
  it('keeps the product events of a batch in order and leaves out the internal ones', () => {
    const batch = [
      event('ev_1', 'sms.received'),
      event('ev_2', 'internal.preference.statement'),
      event('ev_3', 'sms_suppression.created'),
      event('ev_4', 'internal.anything.else'),
      event('ev_5', 'preference.revoked'),
    ];
    expect(webhookEventsOf(batch).map((e) => e.id)).toEqual(['ev_1', 'ev_3', 'ev_5']);
  });

  it('answers nothing for a batch of internal events only', () => {
    expect(webhookEventsOf([event('ev_1', 'internal.preference.statement')])).toEqual([]);
  });
});
