import { PREFERENCE_STATEMENT_EVENT } from '@switchboard/contracts';
import { keywordStatementEvent } from './keyword-statement';

describe(keywordStatementEvent.name, () => {
  const keyword = {
    workspaceId: 'ws_1',
    originator: '+31612340000',
    destination: '+31655550001',
    messageId: 'sms_inbound1',
    at: new Date('2026-11-27T10:00:00.000Z'),
  };

  it('makes a STOP a revoke of everything from the number texted, dated by the inbound message', () => {
    const event = keywordStatementEvent('stop', keyword);
    expect(event).toEqual({
      id: expect.stringMatching(/^ev_/),
      type: PREFERENCE_STATEMENT_EVENT,
      workspaceId: 'ws_1',
      timestamp: '2026-11-27T10:00:00.000Z',
      data: {
        channel: 'sms',
        handle: '+31655550001',
        sender_scope: '+31612340000',
        status: 'revoked',
        coverage: 'all',
        origin: 'keyword',
        effective_at: '2026-11-27T10:00:00.000Z',
        consented_at: null,
        source: 'sms:sms_inbound1',
      },
    });
  });

  it('makes a START a grant whose consent is the moment it was texted', () => {
    const event = keywordStatementEvent('start', { ...keyword, originator: '3434' });
    expect(event?.data).toMatchObject({
      status: 'granted',
      coverage: 'all',
      sender_scope: '3434',
      consented_at: '2026-11-27T10:00:00.000Z',
      effective_at: '2026-11-27T10:00:00.000Z',
    });
  });

  it('gives each statement its own event id', () => {
    expect(keywordStatementEvent('stop', keyword)?.id).not.toBe(
      keywordStatementEvent('stop', keyword)?.id,
    );
  });

  it('says nothing for a sender the ledger cannot key by E.164', () => {
    for (const destination of ['Acme', '3434', '+0123', '31655550001'])
      expect(keywordStatementEvent('stop', { ...keyword, destination })).toBeUndefined();
  });
});
