import type { Pool } from 'pg';
import type { SqlRunner } from './pagination';

/**
 * Runs `work` in a transaction on one connection of a pg Pool: BEGIN, COMMIT or ROLLBACK, with
 * none of the query-runner machinery of a TypeORM transaction, for workers whose every job opens
 * one or two. The runner answers rows, as the service's pool readers do.
 */
export async function inPgTransaction<T>(
  pool: Pool,
  work: (runner: SqlRunner) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work({
      query: async (sql, params) => (await client.query<Record<string, unknown>>(sql, params)).rows,
    });
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
