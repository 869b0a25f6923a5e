import { beginWith, READ_IN_INDEX_ORDER } from '@switchboard/persistence';
import { startTestPostgres, watchTransactionBegins } from '@switchboard/testing';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { InProcessEventBus } from '@switchboard/platform';
import type { EventPublisher, OutboxEvent } from '@switchboard/platform';
import { OutboxRelay } from './outbox-relay';
import type { OutboxRelayOptions } from './outbox-relay';
import { outboxTable } from './outbox.table';
import { wakeRelay } from '../notify/wakeups';
import { writeOutboxEvents } from './write-outbox-events';

const SCHEMA = 'ob';

const event = (id: string): OutboxEvent => ({
  id,
  type: 'email.delivered',
  workspaceId: 'ws_1',
  timestamp: '2026-11-23T00:00:00.000Z',
  data: { email_id: id },
});

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe(OutboxRelay.name, () => {
  let postgres: { stop(): Promise<void> };
  let pool: Pool;
  let db: DataSource;
  const relays: OutboxRelay[] = [];
  const unpublished = async () =>
    Number(
      (await pool.query('SELECT count(*) AS n FROM ob.outbox WHERE published_at IS NULL')).rows[0]
        .n,
    );

  beforeAll(async () => {
    const running = await startTestPostgres();
    postgres = running;
    pool = new Pool({ connectionString: running.url, max: 10 });
    pool.on('error', () => undefined);
    db = new DataSource({ type: 'postgres', url: running.url });
    await db.initialize();
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    await db.query(outboxTable(SCHEMA));
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    await pool.query('DELETE FROM ob.outbox');
  });

  afterAll(async () => {
    await db?.destroy();
    await pool?.end();
    await postgres?.stop();
  });

  function relay(
    publish: EventPublisher['publish'],
    options: OutboxRelayOptions = { pollMs: 100, batchSize: 50 },
  ) {
    const created = new OutboxRelay(pool, SCHEMA, { publish }, options);
    relays.push(created);
    created.start();
    return created;
  }

  it('publishes committed events once, in order, with their body; never a rolled-back one', async () => {
    const seen: OutboxEvent[] = [];
    relay((events) => {
      seen.push(...events);
      return Promise.resolve();
    });
    await db.transaction((manager) =>
      writeOutboxEvents(manager, SCHEMA, [event('ev_1'), event('ev_2')]),
    );
    await db
      .transaction(async (manager) => {
        await writeOutboxEvents(manager, SCHEMA, [event('ev_rolled_back')]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await eventually(async () => seen.length >= 2 && (await unpublished()) === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.map((e) => e.id)).toEqual(['ev_1', 'ev_2']);
    expect(seen[0]).toEqual(event('ev_1'));
  });

  it('begins each batch with the settings that keep its read in index order', async () => {
    const watch = watchTransactionBegins(pool);
    try {
      const seen: string[] = [];
      relay((events) => {
        seen.push(...events.map((e) => e.id));
        return Promise.resolve();
      });
      await db.transaction((manager) => writeOutboxEvents(manager, SCHEMA, [event('ev_plan')]));
      await eventually(() => seen.includes('ev_plan'));
    } finally {
      watch.stop();
    }
    expect(watch.begins.length).toBeGreaterThan(0);
    for (const begin of watch.begins) expect(begin).toBe(beginWith(READ_IN_INDEX_ORDER));
  });

  it('keeps events while the publisher fails and publishes them once it recovers', async () => {
    let failing = true;
    const seen: string[] = [];
    relay((events) => {
      if (failing) return Promise.reject(new Error('down'));
      seen.push(...events.map((e) => e.id));
      return Promise.resolve();
    });
    await db.transaction((manager) => writeOutboxEvents(manager, SCHEMA, [event('ev_3')]));
    await eventually(
      async () =>
        Number(
          (await pool.query("SELECT attempts FROM ob.outbox WHERE id = 'ev_3'")).rows[0].attempts,
        ) >= 1,
    );
    expect(await unpublished()).toBe(1);
    failing = false;
    // Marked published in the publishing transaction, which commits after the publisher returns.
    await eventually(async () => (await unpublished()) === 0);
    expect(seen).toEqual(['ev_3']);
  });

  it('reads the next batch while one is published, and still publishes every batch once, in order, after the one before committed', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `ev_ahead_${i}`);
    await db.transaction((manager) => writeOutboxEvents(manager, SCHEMA, ids.map(event)));
    const openTransactions = async () =>
      Number(
        (
          await pool.query(
            `SELECT count(*) AS n FROM pg_stat_activity
             WHERE datname = current_database() AND state = 'idle in transaction'`,
          )
        ).rows[0].n,
      );
    const seen: string[] = [];
    const aheadDuring: number[] = [];
    let outOfOrder = 0;
    let calls = 0;
    relay(
      async (events) => {
        calls++;
        // The second batch fails once: the batch read ahead of it is given back, unpublished.
        if (calls === 2) throw new Error('down once');
        // This batch's transaction and the next batch's, both open while this one is published.
        if (events.length === 2) {
          await eventually(async () => (await openTransactions()) === 2, 5000);
          aheadDuring.push(2);
        }
        // Everything before this batch committed before it went out.
        const published = await pool.query(
          'SELECT count(*) AS n FROM ob.outbox WHERE published_at IS NOT NULL',
        );
        if (Number(published.rows[0].n) !== seen.length) outOfOrder++;
        seen.push(...events.map((e) => e.id));
      },
      { pollMs: 100, batchSize: 2, backoffBaseMs: 10, backoffCapMs: 50 },
    );
    await eventually(async () => seen.length === 7 && (await unpublished()) === 0);
    expect(seen).toEqual(ids);
    expect(outOfOrder).toBe(0);
    expect(aheadDuring.length).toBeGreaterThan(0);
    await eventually(async () => (await openTransactions()) === 0, 5000);
  });

  it('reads no batch ahead when that would leave its pool no connection for the publish', async () => {
    const small = new Pool({ connectionString: pool.options.connectionString, max: 2 });
    small.on('error', () => undefined);
    const ids = Array.from({ length: 6 }, (_, i) => `ev_small_${i}`);
    await db.transaction((manager) => writeOutboxEvents(manager, SCHEMA, ids.map(event)));
    const seen: string[] = [];
    // A publish that needs the relay's own pool, as an in-process consumer of the same service.
    const created = new OutboxRelay(
      small,
      SCHEMA,
      {
        publish: async (events) => {
          await small.query('SELECT 1');
          seen.push(...events.map((e) => e.id));
        },
      },
      { pollMs: 100, batchSize: 2 },
    );
    relays.push(created);
    created.start();
    try {
      await eventually(async () => seen.length === 6 && (await unpublished()) === 0, 10_000);
      expect(seen).toEqual(ids);
    } finally {
      await created.stop();
      await small.end();
    }
  });

  it('never lets two relays publish the same event', async () => {
    const seen: string[] = [];
    const publish = async (events: OutboxEvent[]) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(...events.map((e) => e.id));
    };
    relay(publish);
    relay(publish);
    for (let batch = 0; batch < 10; batch++)
      await db.transaction((manager) =>
        writeOutboxEvents(
          manager,
          SCHEMA,
          Array.from({ length: 30 }, (_, i) => event(`ev_${batch}_${i}`)),
        ),
      );
    await eventually(() => seen.length >= 300);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toHaveLength(300);
    expect(new Set(seen).size).toBe(300);
  });

  it('wakes on wakeRelay after the commit (no poll) and redelivers through the in-process bus after a subscriber fails', async () => {
    const bus = new InProcessEventBus();
    const received: OutboxEvent[] = [];
    let down = true;
    bus.subscribe('email.', (delivered) => {
      if (down) throw new Error('consumer unavailable');
      received.push(...delivered);
    });
    const quiet = { warn: () => undefined };
    relay((events) => bus.publish(events), {
      pollMs: 60_000,
      backoffBaseMs: 50,
      backoffCapMs: 100,
      logger: quiet,
    });
    const tricky = { ...event('ev_4'), data: { note: 'quotes " and \\ survive' } };
    await writeOutboxEvents(db, SCHEMA, [tricky]);
    wakeRelay(pool, SCHEMA);
    await eventually(
      async () =>
        Number(
          (await pool.query("SELECT attempts FROM ob.outbox WHERE id = 'ev_4'")).rows[0].attempts,
        ) >= 2,
    );
    expect(received).toEqual([]);
    down = false;
    await eventually(async () => (await unpublished()) === 0);
    expect(received).toEqual([tricky]);
  });

  it('with gatherMs, publishes the commits notified within that time in one batch', async () => {
    const batches: string[][] = [];
    relay(
      (events) => {
        batches.push(events.map((published) => published.id));
        return Promise.resolve();
      },
      { pollMs: 60_000, gatherMs: 400 },
    );
    await new Promise((resolve) => setTimeout(resolve, 500)); // listening, first look done
    await writeOutboxEvents(db, SCHEMA, [event('ev_g1')]);
    wakeRelay(pool, SCHEMA);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writeOutboxEvents(db, SCHEMA, [event('ev_g2')]);
    wakeRelay(pool, SCHEMA);
    await eventually(async () => (await unpublished()) === 0);
    expect(batches).toEqual([['ev_g1', 'ev_g2']]);
  });

  it('purges published events older than the retention and keeps the rest', async () => {
    const created = relay(() => Promise.resolve(), { pollMs: 100, retentionMs: 60_000 });
    await writeOutboxEvents(db, SCHEMA, [event('ev_old'), event('ev_recent')]);
    await eventually(async () => (await unpublished()) === 0);
    await pool.query(
      "UPDATE ob.outbox SET published_at = now() - interval '2 minutes' WHERE id = 'ev_old'",
    );
    await writeOutboxEvents(db, SCHEMA, [event('ev_pending')]);
    await created.stop();
    expect(await created.purge()).toBe(1);
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM ob.outbox ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(['ev_pending', 'ev_recent']);
  });
});
