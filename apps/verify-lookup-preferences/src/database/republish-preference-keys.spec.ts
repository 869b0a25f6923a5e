import { startMigratedDatabase } from '@switchboard/testing';
import type { MigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { RepublishPreferenceKeys1764800000600 } from './migrations/1764800000600-republish-preference-keys';
import { verifyLookupPreferencesDatabase } from './verify-lookup-preferences.database';

describe(RepublishPreferenceKeys1764800000600.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      verifyLookupPreferencesDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
      } as VerifyLookupPreferencesConfig),
    );
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('writes one snapshot per key the ledger holds, with its status and last applied transition', async () => {
    await dataSource.query(`
      INSERT INTO verify_lookup_preferences.preferences (id, workspace_id, channel, handle,
        sender_scope, status, coverage, origin, effective_at, deleted_at)
      VALUES ('prf_a', 'ws_1', 'sms', '+31612345678', '+31612340000', 'revoked', 'all', 'keyword',
          '2026-11-20T10:00:00Z', NULL),
        ('prf_b', 'ws_1', 'email', 'a@example.com', NULL, 'revoked', 'non_transactional',
          'api_key', '2026-11-21T10:00:00Z', '2026-11-22T10:00:00Z');
      INSERT INTO verify_lookup_preferences.preference_transitions (id, workspace_id,
        preference_id, kind, applied, coverage, origin, effective_at, recorded_at)
      VALUES ('prt_1', 'ws_1', 'prf_a', 'revoked', true, 'all', 'keyword', now(), now() - interval '2 minutes'),
        ('prt_2', 'ws_1', 'prf_a', 'granted', false, 'all', 'api_key', now(), now() - interval '1 minute'),
        ('prt_3', 'ws_1', 'prf_b', 'deleted', true, 'non_transactional', 'api_key', now(), now());
    `);
    const runner = dataSource.createQueryRunner();
    await new RepublishPreferenceKeys1764800000600().up(runner);
    await runner.release();
    const rows = await dataSource.query<Array<{ type: string; payload: Record<string, unknown> }>>(
      `SELECT type, payload FROM verify_lookup_preferences.outbox ORDER BY seq`,
    );
    expect(rows).toEqual([
      {
        type: 'internal.preference.snapshot',
        payload: {
          type: 'internal.preference.snapshot',
          timestamp: '2026-11-20T10:00:00.000Z',
          data: expect.objectContaining({
            preference_id: 'prf_a',
            transition_id: 'prt_1',
            handle: '+31612345678',
            sender_scope: '+31612340000',
            status: 'revoked',
            coverage: 'all',
          }),
        },
      },
      {
        type: 'internal.preference.snapshot',
        payload: expect.objectContaining({
          data: expect.objectContaining({ preference_id: 'prf_b', status: 'deleted' }),
        }),
      },
    ]);
  });
});
