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
