import { accountUpdate, qualityChanges, reactionStatus } from './account-changes';

const number = {
  id: 'wan_1',
  workspace_id: 'ws_1',
  status: 'connected',
  messaging_limit: 'tier_1k',
};

describe(qualityChanges.name, () => {
  it('moves the messaging limit and flags the number, each with its event', () => {
    expect(
      qualityChanges(number, { event: 'FLAGGED', current_limit: 'TIER_10K' }).map((change) => [
        change.messagingLimit ?? change.status,
        change.event.type,
      ]),
    ).toEqual([
      ['tier_10k', 'whatsapp_number.messaging_limit_updated'],
      ['flagged', 'whatsapp_number.status_changed'],
    ]);
  });

  it('changes nothing the number already reads: a retried webhook records nothing', () => {
    const flagged = { ...number, status: 'flagged', messaging_limit: 'tier_10k' };
    expect(qualityChanges(flagged, { event: 'FLAGGED', current_limit: 'TIER_10K' })).toEqual([]);
    expect(qualityChanges(number, { event: 'UNFLAGGED' })).toEqual([]);
    expect(qualityChanges(flagged, { event: 'UNFLAGGED' })[0].status).toBe('connected');
  });
});

describe(accountUpdate.name, () => {
  it("reads Meta's ban state, as a list or a string", () => {
    expect(accountUpdate({ ban_info: { waba_ban_state: ['DISABLE'] } }).status).toBe('disabled');
    expect(accountUpdate({ ban_info: { waba_ban_state: 'REINSTATE' } }).status).toBe('active');
    expect(accountUpdate({ event: 'VERIFIED_ACCOUNT' })).toEqual({});
  });
});

describe(reactionStatus.name, () => {
  it("is sent for anything but failed, which keeps Meta's code", () => {
    expect(reactionStatus({ id: 'w', status: 'read', timestamp: '1' }).status).toBe('sent');
    const failed = reactionStatus({
      id: 'w',
      status: 'failed',
      timestamp: '1700000000',
      errors: [{ code: 131026, title: 'Message undeliverable' }],
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: 'undeliverable',
        meta_error_code: '131026',
        description: 'Message undeliverable',
      },
    });
  });
});
