import { startTestPostgres } from '@switchboard/testing';
import { Pool } from 'pg';
import { inPgTransaction } from './pg-transaction';

/** A pool whose one client writes down what it is sent. */
function recordingPool(sent: string[]): Pool {
  const client = {
    query: (sql: string) => {
      sent.push(sql);
      return Promise.resolve({ rows: [] });
    },
    on: () => client,
    off: () => client,
    release: () => undefined,
  };
  return {
    connect: () => {
      sent.push('(connect)');
      return Promise.resolve(client);
    },
  } as unknown as Pool;
}

describe(inPgTransaction.name, () => {
  it('sends its settings as SET LOCALs with the BEGIN, in one query', async () => {
    const sent: string[] = [];
    await inPgTransaction(recordingPool(sent), (runner) => runner.query('SELECT 1'), {
      settings: { enable_bitmapscan: 'off', statement_timeout: '5000' },
    });
    expect(sent).toEqual([
      '(connect)',
      'BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL statement_timeout = 5000',
      'SELECT 1',
      'COMMIT',
    ]);
  });

  it.each([
    ['a name that is not one', { 'x; DROP TABLE t': 'off' }],
    ['a value that is not one', { enable_seqscan: "off'; DROP TABLE t; --" }],
  ])('refuses %s before taking a connection', async (_, settings) => {
    const sent: string[] = [];
    await expect(
      inPgTransaction(recordingPool(sent), () => Promise.resolve(), { settings }),
    ).rejects.toThrow('not a setting this transaction can take');
    expect(sent).toEqual([]);
  });

  describe('on a real server', () => {
    let postgres: { stop(): Promise<void>; url: string };
    let pool: Pool;

    beforeAll(async () => {
      postgres = await startTestPostgres();
      pool = new Pool({ connectionString: postgres.url, max: 2 });
    }, 120_000);

    afterAll(async () => {
      await pool?.end();
      await postgres?.stop();
    });

    it('prepares its statements with `prepared`, and only then', async () => {
      const preparedOnItsConnection = (runner: { query: (sql: string) => Promise<unknown> }) =>
        runner.query(
          `SELECT statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT 41%'`,
        );
      const plain = await inPgTransaction(pool, async (runner) => {
        await runner.query('SELECT 41 + $1::int AS n', [1]);
        return preparedOnItsConnection(runner);
      });
      expect(plain).toEqual([]);
      const prepared = await inPgTransaction(
        pool,
        async (runner) => {
          expect(await runner.query('SELECT 41 + $1::int AS n', [1])).toEqual([{ n: 42 }]);
          return preparedOnItsConnection(runner);
        },
        { prepared: true },
      );
      expect(prepared).toEqual([{ statement: 'SELECT 41 + $1::int AS n' }]);
    });

    it('fails, and discards the connection, when its backend is terminated mid-transaction', async () => {
      const running = inPgTransaction(pool, async (runner) => {
        const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as Array<{
          pid: number;
        }>;
        await pool.query('SELECT pg_terminate_backend($1)', [pid]);
        await runner.query('SELECT pg_sleep(5)');
      });
      // An unheard 'error' event of the client would have failed this test's process instead.
      await expect(running).rejects.toThrow();
      const [{ ok }] = (await pool.query('SELECT 1 AS ok')).rows as Array<{ ok: number }>;
      expect(ok).toBe(1);
      expect(pool.totalCount).toBeLessThanOrEqual(1);
    });
  });
});
