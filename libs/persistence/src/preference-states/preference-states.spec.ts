import type { OutboxEvent } from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import {
  applyPreferenceStates,
  isNewer,
  preferenceStatesOf,
  preferenceStatesTable,
} from './preference-states';
import type { PreferenceStateRow } from './preference-states';

const event = (
  type: string,
  at: number,
  transition: string,
  data: Record<string, unknown> = {},
): OutboxEvent => ({
  id: `ev_${transition}`,
  type,
  workspaceId: 'ws_1',
  timestamp: new Date(at).toISOString(),
  data: {
    preference_id: 'prf_1',
    transition_id: transition,
    channel: 'sms',
    handle: '+31612345678',
    sender_scope: null,
    topic_id: null,
    coverage: 'non_transactional',
    contact_id: null,
    ...data,
  },
});

describe(preferenceStatesOf.name, () => {
  it('keeps the newest statement of each key, by effective_at then transition id', () => {
    const rows = preferenceStatesOf(
      [
        event('preference.revoked', 2000, 'prt_b'),
        event('preference.granted', 1000, 'prt_z'),
        event('preference.deleted', 2000, 'prt_a'),
        event('preference.revoked', 500, 'prt_c', { sender_scope: 'Acme', coverage: 'all' }),
      ],
      ['sms'],
    );
    expect(rows).toEqual([
      expect.objectContaining({ sender_scope: '', status: 'revoked', transition_id: 'prt_b' }),
      expect.objectContaining({ sender_scope: 'Acme', status: 'revoked', coverage: 'all' }),
    ]);
  });

  it("takes the ledger's snapshot of a key by the status it carries, and refuses a status it does not know", () => {
    const rows = preferenceStatesOf(
      [
        event('internal.preference.snapshot', 1000, 'prt_s1', { status: 'revoked' }),
        event('internal.preference.snapshot', 1000, 'prt_s2', {
          status: 'withdrawn',
          sender_scope: 'Acme',
        }),
      ],
      ['sms'],
    );
    expect(rows).toEqual([
      expect.objectContaining({ sender_scope: '', status: 'revoked', transition_id: 'prt_s1' }),
    ]);
  });

  it('leaves out other channels, topic-scoped statements, other types and malformed data', () => {
    const rows = preferenceStatesOf(
      [
        event('preference.revoked', 1000, 'prt_1', { channel: 'email' }),
        event('preference.revoked', 1000, 'prt_2', { topic_id: 'top_1' }),
        event('preference.updated', 1000, 'prt_3'),
        event('preference.revoked', 1000, 'prt_4', { handle: 42 }),
        { ...event('preference.revoked', 1000, 'prt_5'), timestamp: 'yesterday' },
      ],
      ['sms', 'whatsapp'],
    );
    expect(rows).toEqual([]);
  });
});

describe(applyPreferenceStates.name, () => {
  let postgres: { stop(): Promise<void> };
  let db: DataSource;

  beforeAll(async () => {
    const running = await startTestPostgres();
    postgres = running;
    db = new DataSource({ type: 'postgres', url: running.url });
    await db.initialize();
    await db.query('CREATE SCHEMA ps');
    await db.query(preferenceStatesTable('ps'));
  });

  afterAll(async () => {
    await db?.destroy();
    await postgres?.stop();
  });

  it('ends at the newest statement of each key whatever the order, batching and duplicates', async () => {
    const statement = fc.record({
      handle: fc.constantFrom('+31600000001', '+31600000002'),
      scope: fc.constantFrom('', 'Acme'),
      type: fc.constantFrom('preference.granted', 'preference.revoked', 'preference.deleted'),
      at: fc.integer({ min: 0, max: 5 }),
      coverage: fc.constantFrom('all', 'non_transactional'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(statement, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        async (statements, shuffle, batchSize) => {
          await db.query('TRUNCATE ps.preference_states');
          const events = statements.map((s, i) =>
            event(s.type, 1_700_000_000_000 + s.at * 1000, `prt_${String(i).padStart(3, '0')}`, {
              handle: s.handle,
              sender_scope: s.scope || null,
              coverage: s.coverage,
            }),
          );
          // Delivered out of order, some twice, in batches.
          const delivered = [...events, ...events.slice(0, 3)].sort(
            (a, b) =>
              (shuffle[events.indexOf(a) % 30] ?? 0) - (shuffle[events.indexOf(b) % 30] ?? 0),
          );
          for (let i = 0; i < delivered.length; i += batchSize)
            await applyPreferenceStates(
              db.manager,
              'ps',
              preferenceStatesOf(delivered.slice(i, i + batchSize), ['sms']),
            );
          const expected = new Map<string, PreferenceStateRow>();
          for (const row of preferenceStatesOf(events, ['sms']))
            expected.set(`${row.handle} ${row.sender_scope}`, row);
          const stored = await db.query<Array<Record<string, string>>>(
            `SELECT handle, sender_scope, status, coverage, transition_id FROM ps.preference_states`,
          );
          expect(stored).toHaveLength(expected.size);
          for (const row of stored) {
            const want = expected.get(`${row.handle} ${row.sender_scope}`);
            expect(row).toEqual({
              handle: want?.handle,
              sender_scope: want?.sender_scope,
              status: want?.status,
              coverage: want?.coverage,
              transition_id: want?.transition_id,
            });
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answers how many keys moved: none for a replay or an older statement', async () => {
    await db.query('TRUNCATE ps.preference_states');
    const revoke = preferenceStatesOf([event('preference.revoked', 2000, 'prt_2')], ['sms']);
    const older = preferenceStatesOf([event('preference.granted', 1000, 'prt_1')], ['sms']);
    expect(await applyPreferenceStates(db.manager, 'ps', revoke)).toBe(1);
    expect(await applyPreferenceStates(db.manager, 'ps', revoke)).toBe(0);
    expect(await applyPreferenceStates(db.manager, 'ps', older)).toBe(0);
    expect(isNewer(revoke[0], older[0])).toBe(true);
  });
});
