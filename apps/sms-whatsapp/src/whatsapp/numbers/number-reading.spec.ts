import { changeEvents, readingOf } from './number-reading';

describe('number readings', () => {
  it("spell Meta's tokens as the SDK does", () => {
    expect(
      readingOf({
        id: '106',
        status: 'CONNECTED',
        quality_rating: 'GREEN',
        messaging_limit_tier: 'TIER_1K',
        throughput: { level: 'STANDARD' },
        is_official_business_account: false,
      }),
    ).toEqual({
      status: 'connected',
      quality_rating: 'green',
      messaging_limit: 'tier_1k',
      throughput_level: 'standard',
      is_official_business_account: false,
      data_localization_region: null,
    });
  });

  it('record one event per field a reading moves, and none for what it leaves out', () => {
    const before = {
      id: 'wan_1',
      workspace_id: 'ws_1',
      status: 'connected',
      quality_rating: 'green',
      messaging_limit: null,
    };
    const events = changeEvents(before, {
      ...readingOf({ id: '106', status: 'FLAGGED', messaging_limit_tier: 'TIER_250' }),
    });
    expect(events.map((e) => [e.type, e.metadata])).toEqual([
      ['whatsapp_number.status_changed', { from: 'connected', to: 'flagged' }],
      ['whatsapp_number.messaging_limit_updated', { to: 'tier_250' }],
    ]);
  });
});
