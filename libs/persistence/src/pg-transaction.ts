import type { Pool } from 'pg';
import type { SqlRunner } from './pagination';
import { isStalePlan, pgRunner, preparedRunner } from './pg-pool';

export interface PgTransactionOptions {
  /**
   * Settings for this transaction only (`SET LOCAL name = value`), sent with its BEGIN. Names
   * and values are the caller's constants, never input: they are checked, not quoted.
   */
  settings?: Readonly<Record<string, string>>;
  /**
   * The runner prepares each statement text (`preparedRunner`): for a hot transaction whose
   * statements come from a bounded set of texts.
   */
  prepared?: boolean;
}

/**
 * Runs `work` in a transaction on one connection of a pg Pool: BEGIN, COMMIT or ROLLBACK, with
 * none of the query-runner machinery of a TypeORM transaction, for workers whose every job opens
 * one or two. The runner answers rows, as the service's pool readers do. A connection that
 * breaks meanwhile (the server restarted, the backend was terminated) fails the transaction and
 * is discarded: a checked-out pg client has no pool listener for its 'error' event, and an
 * unheard one would end the process. With `prepared`, a transaction that failed because a
 * migration changed a prepared statement's columns runs once more (`preparedRunner`).
 */
export async function inPgTransaction<T>(
  pool: Pool,
  work: (runner: SqlRunner) => Promise<T>,
  options: PgTransactionOptions = {},
): Promise<T> {
  try {
    return await once(pool, work, options);
  } catch (err) {
    // A prepared statement a migration widened: rolled back, and renamed; once more, whole.
    if (!options.prepared || !isStalePlan(err)) throw err;
    return once(pool, work, options);
  }
}

async function once<T>(
  pool: Pool,
  work: (runner: SqlRunner) => Promise<T>,
  options: PgTransactionOptions,
): Promise<T> {
  const begin = beginWith(options.settings);
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    await client.query(begin);
    const runner = options.prepared
      ? preparedRunner(client, { inTransaction: true })
      : pgRunner(client);
    const result = await work(runner);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken ??= rollbackErr));
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/**
 * Planner settings for a statement that takes the first rows of a queue in index order (`ORDER BY`
 * the index, `LIMIT`, `FOR UPDATE SKIP LOCKED`): a work queue's claim, an outbox relay's batch. A
 * burst grows such a table from a few rows to thousands between two ANALYZEs; on the stale
 * estimate PostgreSQL planned them as a bitmap (or sequential) scan of every waiting row, dead
 * ones included, sorted, then the LIMIT: work that grows with the backlog (53,000 index entries
 * and 5 ms a claim in the webhooks bench). Read in index order, they stop after the rows they take.
 */
export const READ_IN_INDEX_ORDER = { enable_bitmapscan: 'off', enable_seqscan: 'off' } as const;

/**
 * The BEGIN of a transaction with its settings (`SET LOCAL`), as one simple query: one round
 * trip. Without settings, `BEGIN`.
 */
export function beginWith(settings: PgTransactionOptions['settings'] = {}): string {
  return ['BEGIN', ...Object.entries(settings).map(setLocal)].join('; ');
}

function setLocal([name, value]: [string, string]): string {
  if (!/^[a-z_][a-z0-9_.]*$/.test(name) || !/^[A-Za-z0-9_.]+$/.test(value))
    throw new Error(`not a setting this transaction can take: ${name} = ${value}`);
  return `SET LOCAL ${name} = ${value}`;
}
