import { stoppedAmong } from './preference-checks';
import type { PreferenceCheck, ProjectedStatement } from './preference-checks';

const statement = (
  handle: string,
  sender_scope: string,
  status: ProjectedStatement['status'],
  coverage = 'non_transactional',
  workspace_id = 'ws_1',
): ProjectedStatement => ({
  workspace_id,
  channel: 'sms',
  handle,
  sender_scope,
  status,
  coverage,
});
const send = (handle: string, senderScope: string, transactional = false): PreferenceCheck => ({
  workspaceId: 'ws_1',
  channel: 'sms',
  handle,
  senderScope,
  transactional,
});

describe(stoppedAmong.name, () => {
  it("stops each send of a batch on a revocation that applies to it: channel-wide or its own sender's", () => {
    const statements = [
      statement('+31600000001', '', 'revoked'),
      statement('+31600000001', 'Acme', 'granted'),
      statement('+31600000002', 'Acme', 'revoked', 'all'),
    ];
    const stopped = stoppedAmong(statements, [
      send('+31600000001', 'Acme'),
      send('+31600000001', 'Other'),
      send('+31600000001', 'Other', true),
      send('+31600000002', 'Acme', true),
      send('+31600000002', 'Other'),
      send('+31600000003', 'Acme'),
    ]);
    // The channel-wide revoke stops Acme too: a grant scoped to Acme does not lift it.
    expect([...stopped].sort()).toEqual([0, 1, 3]);
  });

  it("never applies another workspace's or another channel's statements", () => {
    const statements = [
      statement('+31600000001', '', 'revoked', 'all', 'ws_2'),
      { ...statement('+31600000001', '', 'revoked', 'all'), channel: 'whatsapp' },
    ];
    expect(stoppedAmong(statements, [send('+31600000001', 'Acme')]).size).toBe(0);
  });
});
