import { PREFERENCE_STATEMENT_EVENT } from '@switchboard/contracts';
import type { PreferenceStatementEvent } from '@switchboard/contracts';
import fc from 'fast-check';
import { channelStatementOf } from './channel-statement';

const data: PreferenceStatementEvent = {
  channel: 'sms',
  handle: '+31655550001',
  sender_scope: '+31612340000',
  status: 'revoked',
  coverage: 'all',
  origin: 'keyword',
  effective_at: '2026-11-27T10:00:00.000Z',
  consented_at: null,
  source: 'sms:sms_1',
};
const event = (overrides: Record<string, unknown> = {}) => ({
  id: 'ev_1',
  type: PREFERENCE_STATEMENT_EVENT,
  workspaceId: 'ws_1',
  timestamp: data.effective_at,
  data: { ...data, ...overrides },
});

describe(channelStatementOf.name, () => {
  it("reads a STOP as the key (the person, the number texted) and the person's revoke", () => {
    expect(channelStatementOf(event())).toEqual({
      key: {
        workspaceId: 'ws_1',
        channel: 'sms',
        handle: '+31655550001',
        senderScope: '+31612340000',
      },
      state: {
        status: 'revoked',
        coverage: 'all',
        origin: 'keyword',
        source: 'sms:sms_1',
        consentedAt: null,
        effectiveAt: new Date(data.effective_at),
        contactId: null,
      },
    });
  });

  it('reads a grant with its consent, and a channel-wide email unsubscribe', () => {
    const start = channelStatementOf(
      event({ status: 'granted', consented_at: '2026-11-27T11:00:00.000Z' }),
    );
    expect('state' in start && start.state.consentedAt?.toISOString()).toBe(
      '2026-11-27T11:00:00.000Z',
    );
    const unsubscribe = channelStatementOf(
      event({
        channel: 'email',
        handle: 'Ada@Example.com',
        sender_scope: null,
        origin: 'unsubscribe_link',
        coverage: 'non_transactional',
      }),
    );
    expect('key' in unsubscribe && unsubscribe.key).toMatchObject({
      channel: 'email',
      handle: 'ada@example.com',
      senderScope: null,
    });
  });

  it.each([
    [{ channel: 'fax' }],
    [{ handle: '0612345678' }],
    [{ channel: 'email', handle: 'a@b.co', sender_scope: 'x' }],
    [{ status: 'maybe' }],
    [{ coverage: 'some' }],
    [{ origin: 'api_key' }],
    [{ effective_at: 'yesterday' }],
    [{ consented_at: '2026-11-27T10:00:00.000Z' }],
    [{ source: undefined }],
  ])('names the problem of a statement it cannot record: %j', (overrides) => {
    expect(channelStatementOf(event(overrides))).toEqual({ problem: expect.any(String) });
  });

  it('never throws on whatever a data field holds', () => {
    const field = fc.constantFrom(...Object.keys(data));
    fc.assert(
      fc.property(field, fc.anything(), (name, value) => {
        const read = channelStatementOf(event({ [name]: value }));
        expect('problem' in read || 'key' in read).toBe(true);
      }),
    );
    expect(channelStatementOf({ ...event(), data: null })).toEqual({ problem: expect.any(String) });
  });
});
