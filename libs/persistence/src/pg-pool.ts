import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { SqlRunner } from './pagination';

/** The pg Pool under a service's TypeORM DataSource (once the DataSource is initialised). */
export function pgPoolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * Reads outside a transaction straight on the pg Pool: one pool round trip per query, without
 * the TypeORM query runner each `DataSource.query` creates and releases. Answers the rows.
 */
export function poolRunner(dataSource: DataSource): SqlRunner {
  return {
    query: async (sql, params) =>
      (await pgPoolOf(dataSource).query<Record<string, unknown>>(sql, params)).rows,
  };
}

/** A pg Pool or a checked-out client as a `SqlRunner`: each query answers its rows. */
export function pgRunner(pg: Pool | PoolClient): SqlRunner {
  return {
    query: async (sql, params) => (await pg.query<Record<string, unknown>>(sql, params)).rows,
  };
}

/** Most statement texts `preparedRunner` names; texts past it run unnamed (parsed each time). */
const MAX_NAMED_STATEMENTS = 256;
const statementNames = new Map<string, string>();
let namesGiven = 0;

/**
 * `pgRunner` for hot statements of fixed text: each text gets a name, so every connection parses
 * and plans it once and then only binds and executes it. Planning a statement of several CTEs
 * costs PostgreSQL about as much as running it (0.6 ms of a 2 ms group commit of SMS submit
 * outcomes). Only for texts from a bounded set: each named one stays prepared on every
 * connection of the pool, and past MAX_NAMED_STATEMENTS texts run unnamed.
 *
 * A migration that changes what a prepared `*` returns (a column added while this process runs:
 * a rolling deploy) makes PostgreSQL refuse the statement on every connection that prepared it.
 * The text then gets a new name, prepared afresh; on the pool the query runs again at once, in a
 * transaction (`inTransaction`) the error stands and `inPgTransaction` runs the transaction again.
 */
export function preparedRunner(
  pg: Pool | PoolClient,
  { inTransaction = false }: { inTransaction?: boolean } = {},
): SqlRunner {
  const run = async (sql: string, params: unknown[] | undefined) =>
    (
      await pg.query<Record<string, unknown>>({
        name: statementName(sql),
        text: sql,
        values: params,
      })
    ).rows;
  return {
    query: async (sql, params) => {
      try {
        return await run(sql, params);
      } catch (err) {
        if (!isStalePlan(err)) throw err;
        renameStatement(sql);
        if (inTransaction) throw err;
        return run(sql, params);
      }
    },
  };
}

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `switchboard_${++namesGiven}`;
    statementNames.set(sql, name);
  }
  return name;
}

function renameStatement(sql: string): void {
  if (statementNames.has(sql)) statementNames.set(sql, `switchboard_${++namesGiven}`);
}

/** PostgreSQL's refusal of a prepared statement whose result columns a schema change altered. */
export function isStalePlan(err: unknown): boolean {
  const { code, message } = err as { code?: string; message?: string };
  return code === '0A000' && /cached plan must not change result type/.test(message ?? '');
}
