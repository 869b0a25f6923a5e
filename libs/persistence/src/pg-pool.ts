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

/**
 * `pgRunner` for hot statements of fixed text: each text gets a name, so every connection parses
 * and plans it once and then only binds and executes it. Planning a statement of several CTEs
 * costs PostgreSQL about as much as running it (0.6 ms of a 2 ms group commit of SMS submit
 * outcomes). Only for texts from a bounded set: each named one stays prepared on every
 * connection of the pool, and past MAX_NAMED_STATEMENTS texts run unnamed.
 */
export function preparedRunner(pg: Pool | PoolClient): SqlRunner {
  return {
    query: async (sql, params) =>
      (
        await pg.query<Record<string, unknown>>({
          name: statementName(sql),
          text: sql,
          values: params,
        })
      ).rows,
  };
}

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `switchboard_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}
