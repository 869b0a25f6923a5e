import { startMigratedDatabase } from '@switchboard/testing';
import type { MigratedDatabase } from '@switchboard/testing';
import type { OutboxEvent } from '@switchboard/platform';
import type { DataSource } from 'typeorm';
import type { WebhooksConfig } from '../config/webhooks.config';
import { webhooksDatabase } from '../database/webhooks.database';
import { DeliveriesRepository } from './deliveries.repository';

const event = (id: string, workspaceId = 'ws_1'): OutboxEvent => ({
  id,
  type: 'sms.received',
  workspaceId,
  timestamp: '2026-11-27T10:00:00.000Z',
  data: { zeta: 1, alpha: { b: 2, a: 1 } },
});

/** What a reservation passes: claim the first `count` jobs for presence 7, leased 30 s. */
const claiming = (count: number) => ({ params: [count, 30_000, 7] as [number, number, number] });

describe('webhook deliveries in PostgreSQL', () => {
  let database: MigratedDatabase;
  let db: DataSource;
  let repository: DeliveriesRepository;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      webhooksDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 } as WebhooksConfig),
    );
    db = database.dataSource;
    repository = new DeliveriesRepository(db);
    await db.query(`
      INSERT INTO webhooks.endpoints (id, workspace_id, url, events)
      VALUES ('whk_1', 'ws_1', 'https://hooks.example.com/a', '{sms.received}'),
        ('whk_2', 'ws_1', 'https://hooks.example.com/b', '{sms.received}');
      INSERT INTO webhooks.secrets (id, endpoint_id, secret_sealed)
      VALUES ('whs_1', 'whk_1', 'sealed-1'), ('whs_2', 'whk_2', 'sealed-2');
    `);
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('stores an event once with one delivery and job per endpoint, claims the first jobs with what their sends need, and stores a redelivered event nothing more', async () => {
    const stored = await repository.intake([event('ev_1'), event('ev_2')], claiming(3));
    expect(stored).toMatchObject({ events: 2, deliveries: 4 });
    expect(stored.claimed).toHaveLength(3);
    for (const { job, delivery } of stored.claimed) {
      expect(job).toMatchObject({ attempts: 1, payload: { delivery_id: delivery.id } });
      expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(delivery.secrets).toEqual([
        delivery.endpoint_id === 'whk_1' ? 'sealed-1' : 'sealed-2',
      ]);
      // As stored, so a retry that reads it back signs the same bytes.
      const [row] = await db.query('SELECT body FROM webhooks.events WHERE id = $1', [
        delivery.event_id,
      ]);
      expect(JSON.stringify(delivery.body)).toBe(JSON.stringify(row.body));
    }
    // Queued in the bus's order, then the endpoints'.
    const order = await db.query(
      `SELECT d.event_id, d.endpoint_id FROM webhooks.jobs j
       JOIN webhooks.deliveries d ON d.id = j.payload->>'delivery_id' ORDER BY j.id`,
    );
    expect(order).toEqual([
      { event_id: 'ev_1', endpoint_id: 'whk_1' },
      { event_id: 'ev_1', endpoint_id: 'whk_2' },
      { event_id: 'ev_2', endpoint_id: 'whk_1' },
      { event_id: 'ev_2', endpoint_id: 'whk_2' },
    ]);
    const jobs = await db.query(
      `SELECT attempts, locked_by, locked_until IS NOT NULL AS leased FROM webhooks.jobs ORDER BY id`,
    );
    expect(jobs).toEqual([
      ...Array(3).fill({ attempts: 1, locked_by: 7, leased: true }),
      { attempts: 0, locked_by: null, leased: false },
    ]);

    const again = await repository.intake([event('ev_2'), event('ev_3')], claiming(0));
    expect(again).toMatchObject({ events: 1, deliveries: 2, claimed: [] });
    const [counts] = await db.query(
      `SELECT count(*)::int AS deliveries, count(DISTINCT (endpoint_id, event_id))::int AS pairs
       FROM webhooks.deliveries`,
    );
    expect(counts).toEqual({ deliveries: 6, pairs: 6 });
  });

  it('purges events past the retention with their deliveries and attempts (by cascade), and keeps the others', async () => {
    await repository.intake([event('ev_old')], claiming(0));
    await db.query(`
      UPDATE webhooks.events SET received_at = now() - interval '40 days' WHERE id = 'ev_old';
      INSERT INTO webhooks.attempts (id, delivery_id, endpoint_id, workspace_id, event_id,
        event_type, status, url, response_duration_ms, attempted_at)
      SELECT 'wha_' || d.id, d.id, d.endpoint_id, d.workspace_id, d.event_id, 'sms.received',
        'delivered', 'https://hooks.example.com/a', 5, now()
      FROM webhooks.deliveries d;
    `);
    const left = async () =>
      (
        await db.query(`
          SELECT (SELECT count(*) FROM webhooks.events WHERE id = 'ev_old')::int AS events,
            (SELECT count(*) FROM webhooks.deliveries WHERE event_id = 'ev_old')::int AS deliveries,
            (SELECT count(*) FROM webhooks.attempts WHERE event_id = 'ev_old')::int AS attempts,
            (SELECT count(*) FROM webhooks.attempts)::int AS all_attempts`)
      )[0];
    expect(await left()).toEqual({ events: 1, deliveries: 2, attempts: 2, all_attempts: 8 });
    expect(await repository.purgeEvents(30)).toBe(1);
    expect(await left()).toEqual({ events: 0, deliveries: 0, attempts: 0, all_attempts: 6 });
  });
});
