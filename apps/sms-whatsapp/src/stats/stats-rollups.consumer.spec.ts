import { foldableEvents } from './stats-rollups.consumer';

describe('foldableEvents', () => {
  const event = (type: string, data: Record<string, unknown> | null) => ({
    id: `ev_${type}`,
    type,
    workspaceId: 'ws_1',
    timestamp: '2026-05-01T10:00:00.000Z',
    data,
  });

  it('keeps the counted types that name their message, as the fold takes them', () => {
    const counted = new Set(['sms.accepted', 'sms.delivered']);
    expect(
      foldableEvents(
        [
          event('sms.accepted', { sms_id: 'sms_1' }),
          event('sms.enroute', { sms_id: 'sms_1' }),
          event('sms.delivered', { whatsapp_id: 'wam_1' }),
          event('sms.delivered', null),
        ],
        counted,
        'sms_id',
      ),
    ).toEqual([
      { message_id: 'sms_1', type: 'sms.accepted', occurred_at: '2026-05-01T10:00:00.000Z' },
    ]);
  });
});
