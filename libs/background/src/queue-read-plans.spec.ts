import { inPgTransaction, READ_IN_INDEX_ORDER } from '@switchboard/persistence';
import { startTestPostgres } from '@switchboard/testing';
import { Pool } from 'pg';
import { unpublishedBatchStatement } from './outbox/outbox-relay';
import { outboxTable } from './outbox/outbox.table';
import { claimJobsStatement } from './work-queue/queue-runner';
import { workQueueOwnerColumn, workQueueTable } from './work-queue/work-queue.table';

const SCHEMA = 'plans';

/**
 * A burst fills a queue between two ANALYZEs, and PostgreSQL plans its reads on the stale
 * estimate. Seen in the webhooks bench: claims and outbox batches as a bitmap scan of every
 * waiting row (53,000 and 30,730 index entries, dead ones included) and a sort. Reproduced here:
 * the claim's UPDATE joins its picks to a sequential scan of every job. Under READ_IN_INDEX_ORDER
 * each reads its index in order, which stops after the rows it takes, and finds the claimed
 * rows by primary key.
 */
describe('queue reads on stale statistics', () => {
  let postgres: { stop(): Promise<void>; url: string };
  let pool: Pool;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    pool = new Pool({ connectionString: postgres.url, max: 2 });
    await pool.query(`CREATE SCHEMA ${SCHEMA}; ${workQueueTable(SCHEMA)}; ${outboxTable(SCHEMA)}`);
    await pool.query(workQueueOwnerColumn(SCHEMA));
    // A work queue analyzed with 10 jobs, then a burst of 20,000.
    await pool.query(
      `INSERT INTO ${SCHEMA}.jobs (queue, payload) SELECT 'q', '{}' FROM generate_series(1, 10)`,
    );
    await pool.query(`ANALYZE ${SCHEMA}.jobs`);
    await pool.query(
      `INSERT INTO ${SCHEMA}.jobs (queue, payload) SELECT 'q', '{}' FROM generate_series(1, 20000)`,
    );
    // An outbox analyzed with 600 rows unpublished, then relayed down to 50: the relayed rows'
    // entries stay in the unpublished index until a vacuum.
    await pool.query(
      `INSERT INTO ${SCHEMA}.outbox (id, type, payload, workspace_id)
       SELECT 'evt_' || g, 't', '{}', 'ws' FROM generate_series(1, 20000) g`,
    );
    const relayAllBut = (left: number) =>
      pool.query(
        `UPDATE ${SCHEMA}.outbox SET published_at = now() WHERE seq IN (
           SELECT seq FROM ${SCHEMA}.outbox WHERE published_at IS NULL ORDER BY seq
           LIMIT (SELECT count(*) FROM ${SCHEMA}.outbox WHERE published_at IS NULL) - $1)`,
        [left],
      );
    await relayAllBut(600);
    await pool.query(`ANALYZE ${SCHEMA}.outbox`);
    await relayAllBut(50);
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  const planOf = (statement: string, params: unknown[]) =>
    inPgTransaction(
      pool,
      async (runner) =>
        ((await runner.query(`EXPLAIN ${statement}`, params)) as Array<{ 'QUERY PLAN': string }>)
          .map((row) => row['QUERY PLAN'])
          .join('\n'),
      { settings: READ_IN_INDEX_ORDER },
    );

  it('a work queue claim reads the claim index in due order and updates by primary key', async () => {
    const plan = await planOf(claimJobsStatement(SCHEMA), ['q', 32, 60_000, null]);
    expect(plan).toMatch(/Index Scan using jobs_claim_idx on jobs\b/);
    expect(plan).toMatch(/Index Scan using jobs_pkey on jobs j\b/);
    expect(plan).not.toMatch(/(Bitmap Heap|Seq) Scan on jobs\b/);
  });

  it("an outbox relay's batch reads the unpublished index in order", async () => {
    const plan = await planOf(unpublishedBatchStatement(SCHEMA), [500]);
    expect(plan).toMatch(/Index Scan using outbox_unpublished_idx on outbox\b/);
    expect(plan).not.toMatch(/(Bitmap Heap|Seq) Scan on outbox\b/);
  });
});
