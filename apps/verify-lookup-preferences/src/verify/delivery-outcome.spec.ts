import type { OutboxEvent } from '@switchboard/platform';
import { outcomeOf } from './delivery-outcome';
import { VERIFICATION_METADATA_KEY } from './passcode-channels';

const eventOf = (type: string, data: Record<string, unknown>): OutboxEvent => ({
  id: 'evt_1',
  type,
  workspaceId: 'ws_1',
  timestamp: '2026-11-28T10:00:00.000Z',
  data: { metadata: { [VERIFICATION_METADATA_KEY]: 'vrf_1' }, ...data },
});

describe(outcomeOf.name, () => {
  it('reads a passcode message refused after its acceptance as undelivered, so the plan moves on', () => {
    const refused = { description: 'The recipient opted out' };
    expect(outcomeOf(eventOf('sms.rejected', { sms_id: 'sms_1', error: refused }))).toMatchObject({
      messageId: 'sms_1',
      delivered: false,
      reason: 'channel_unavailable',
      error: 'The recipient opted out',
    });
    expect(
      outcomeOf(eventOf('whatsapp.rejected', { whatsapp_id: 'wam_1', error: refused })),
    ).toMatchObject({ messageId: 'wam_1', delivered: false, reason: 'channel_unavailable' });
  });

  it('tells delivered and soft bounces, and ignores messages that are not passcodes', () => {
    expect(outcomeOf(eventOf('sms.delivered', { sms_id: 'sms_2', carrier: 'KPN' }))).toMatchObject({
      delivered: true,
      reason: null,
      carrier: 'KPN',
    });
    expect(
      outcomeOf(eventOf('email.bounced', { email_id: 'em_1', bounce_type: 'soft' }))?.reason,
    ).toBe('soft_bounce');
    expect(outcomeOf({ ...eventOf('sms.failed', { sms_id: 'sms_3' }), data: {} })).toBeUndefined();
    expect(outcomeOf(eventOf('sms.sent', { sms_id: 'sms_4' }))).toBeUndefined();
  });
});
