import type { Pool } from 'pg';
import type { SqlRunner } from './pagination';

export interface PgTransactionOptions {
  /**
   * Settings for this transaction only (`SET LOCAL name = value`), sent with its BEGIN. Names
   * and values are the caller's constants, never input: they are checked, not quoted.
   */
  settings?: Readonly<Record<string, string>>;
}

/**
 * Runs `work` in a transaction on one connection of a pg Pool: BEGIN, COMMIT or ROLLBACK, with
 * none of the query-runner machinery of a TypeORM transaction, for workers whose every job opens
 * one or two. The runner answers rows, as the service's pool readers do.
 */
export async function inPgTransaction<T>(
  pool: Pool,
  work: (runner: SqlRunner) => Promise<T>,
  options: PgTransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    // One round trip: BEGIN and the SET LOCALs go as one simple query.
    await client.query(['BEGIN', ...settingsOf(options)].join('; '));
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

function settingsOf({ settings = {} }: PgTransactionOptions): string[] {
  return Object.entries(settings).map(([name, value]) => {
    if (!/^[a-z_][a-z0-9_.]*$/.test(name) || !/^[A-Za-z0-9_.]+$/.test(value))
      throw new Error(`not a setting this transaction can take: ${name} = ${value}`);
    return `SET LOCAL ${name} = ${value}`;
  });
}
