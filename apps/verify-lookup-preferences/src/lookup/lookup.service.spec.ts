import { IdempotentWrites } from '@switchboard/persistence';
import { startDnsServer } from '@switchboard/testing';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { LookupService } from './lookup.service';

describe(LookupService.name, () => {
  it('answers an email lookup within the transport time-out when the name servers never answer', async () => {
    const dns = await startDnsServer();
    dns.set('silent.test', 'silent');
    try {
      // Without an Idempotency-Key nothing touches the database.
      const writes = new IdempotentWrites(undefined as never, 'unused', undefined as never);
      const service = new LookupService(writes, {
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: 5000,
        TRANSPORT_TIMEOUT_MS: 1500,
      } as VerifyLookupPreferencesConfig);
      // Without the budget it would wait for both tries of the MX query (10 s), past this test's
      // own time-out; with it, DNS could not tell: neutral, not valid, no reason.
      const answer = await service.email(
        { requestId: 'req_spec', workspaceId: 'ws_spec', caller: { kind: 'api_key' } },
        { email: 'someone@silent.test' },
      );
      expect(answer).toMatchObject({ valid: false, result: 'neutral' });
      expect(answer).not.toHaveProperty('reason');
    } finally {
      await dns.stop();
    }
  });
});
