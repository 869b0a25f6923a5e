import { startTestPostgres } from '@switchboard/testing';
import { Pool } from 'pg';
import { preparedRunner } from './pg-pool';
import { inPgTransaction } from './pg-transaction';

describe(preparedRunner.name, () => {
  let postgres: { stop(): Promise<void>; url: string };
  let pool: Pool;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    // One connection: what it has prepared is what every query below saw.
    pool = new Pool({ connectionString: postgres.url, max: 1 });
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await postgres?.stop();
  });

  const prepared = async () =>
    (
      await pool.query<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'switchboard_%' ORDER BY statement`,
      )
    ).rows.map((row) => row.statement);

  it('prepares each text once per connection and answers the rows of every run', async () => {
    const runner = preparedRunner(pool);
    const double = 'SELECT $1::int * 2 AS n';
    const triple = 'SELECT $1::int * 3 AS n';
    expect(await runner.query(double, [2])).toEqual([{ n: 4 }]);
    expect(await runner.query(double, [5])).toEqual([{ n: 10 }]);
    expect(await runner.query(triple, [5])).toEqual([{ n: 15 }]);
    expect(await prepared()).toEqual([double, triple]);
  });

  it('gives the same text the same name from every runner', async () => {
    await preparedRunner(pool).query('SELECT $1::int * 2 AS n', [7]);
    expect((await prepared()).filter((text) => text === 'SELECT $1::int * 2 AS n')).toHaveLength(1);
  });

  it('prepares the text afresh when a migration changed what its `*` returns', async () => {
    await pool.query('CREATE TABLE widened (a int); INSERT INTO widened VALUES (1)');
    const runner = preparedRunner(pool);
    expect(await runner.query('SELECT * FROM widened')).toEqual([{ a: 1 }]);
    await pool.query('ALTER TABLE widened ADD COLUMN b int DEFAULT 2');
    expect(await runner.query('SELECT * FROM widened')).toEqual([{ a: 1, b: 2 }]);
  });

  it('in a transaction, runs the transaction once more under the new name', async () => {
    await pool.query('CREATE TABLE widened_tx (a int); INSERT INTO widened_tx VALUES (1)');
    let runs = 0;
    const read = () =>
      inPgTransaction(
        pool,
        (runner) => {
          runs++;
          return runner.query('SELECT * FROM widened_tx');
        },
        { prepared: true },
      );
    expect(await read()).toEqual([{ a: 1 }]);
    await pool.query('ALTER TABLE widened_tx ADD COLUMN b int DEFAULT 2');
    expect(await read()).toEqual([{ a: 1, b: 2 }]);
    expect(runs).toBe(3); // the second read ran twice: refused, then under its new name
  });
});
