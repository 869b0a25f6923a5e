import { maskedAddress, unsubscribeStatement } from './unsubscribe.service';

describe('unsubscribe', () => {
  it('masks the local part of an address', () => {
    expect(maskedAddress('jane.doe@example.com')).toBe('j…e@example.com');
    expect(maskedAddress('jo@example.com')).toBe('j…@example.com');
    expect(maskedAddress('j@example.com')).toBe('j…@example.com');
  });

  it("states the person's own revoke of marketing mail for the ledger", () => {
    const at = new Date('2026-11-27T05:00:00.000Z');
    const event = unsubscribeStatement(
      {
        message_id: 'em_1',
        recipient_id: 'rcp_1',
        workspace_id: 'ws_1',
        broadcast_id: null,
        sender_domain: 'acme.example',
        tags: [],
        metadata: null,
        email: 'Ada@Example.com',
        role: 'to',
      },
      at,
    );
    expect(event).toMatchObject({
      type: 'internal.preference.statement',
      workspaceId: 'ws_1',
      timestamp: at.toISOString(),
      data: {
        channel: 'email',
        handle: 'ada@example.com',
        sender_scope: null,
        status: 'revoked',
        coverage: 'non_transactional',
        origin: 'unsubscribe_link',
        effective_at: at.toISOString(),
        consented_at: null,
        source: 'email:em_1',
      },
    });
    // Sorts before the ledger's own transition ids (prt_), which then take the projection row over.
    expect(event.id < 'prt_').toBe(true);
  });
});
