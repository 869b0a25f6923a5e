import { inPgTransaction } from '@switchboard/persistence';
import { startTestPostgres } from '@switchboard/testing';
import { Pool } from 'pg';
import { CLAIM_PLAN, claimJobsStatement } from './queue-runner';
import { workQueueOwnerColumn, workQueueTable } from './work-queue.table';

const SCHEMA = 'wq_plan';

/**
 * A burst fills a queue between two ANALYZEs. On the stale estimate PostgreSQL planned each
 * claim as a bitmap scan of every due job, sorted: work that grows with the backlog. The claim's
 * settings keep it on the claim index read in due order, which stops after the jobs it takes.
 */
describe('the work queue claim plan', () => {
  let postgres: { stop(): Promise<void>; url: string };
  let pool: Pool;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    pool = new Pool({ connectionString: postgres.url, max: 2 });
    await pool.query(`CREATE SCHEMA ${SCHEMA}; ${workQueueTable(SCHEMA)}`);
    await pool.query(workQueueOwnerColumn(SCHEMA));
    // Statistics taken while the queue was almost empty, then a burst of 20,000 due jobs.
    await pool.query(
      `INSERT INTO ${SCHEMA}.jobs (queue, payload) SELECT 'q', '{}' FROM generate_series(1, 10)`,
    );
    await pool.query(`ANALYZE ${SCHEMA}.jobs`);
    await pool.query(
      `INSERT INTO ${SCHEMA}.jobs (queue, payload) SELECT 'q', '{}' FROM generate_series(1, 20000)`,
    );
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  it('reads the claim index in due order, not a bitmap of the whole backlog, on stale statistics', async () => {
    const plan = await inPgTransaction(
      pool,
      async (runner) =>
        (
          (await runner.query(`EXPLAIN ${claimJobsStatement(SCHEMA)}`, [
            'q',
            32,
            60_000,
            null,
          ])) as Array<{ 'QUERY PLAN': string }>
        )
          .map((row) => row['QUERY PLAN'])
          .join('\n'),
      { settings: CLAIM_PLAN },
    );
    expect(plan).toMatch(/Index Scan using jobs_claim_idx on jobs\b/);
    expect(plan).not.toMatch(/Bitmap Heap Scan on jobs\b/);
    expect(plan).not.toMatch(/Seq Scan on jobs\b/);
  });
});
