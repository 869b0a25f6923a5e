import type { DataSourceOptions } from 'typeorm';

export interface ServiceDatabase {
  /** Postgres schema the service owns; also the name of its migrations table's schema. */
  schema: string;
  url: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

/**
 * How long a pool keeps an unused connection. pg's own default (10 s) closed them between
 * sporadic requests, and the next request after a pause paid a new connection (its start-up and
 * SCRAM exchange): a realtime publish after 11 s idle took 37 ms against 4 ms. Five minutes, as
 * connection pools on the JVM keep them, spans a pause in a user's traffic.
 */
export const POOL_IDLE_TIMEOUT_MS = 300_000;

export function serviceDataSourceOptions(database: ServiceDatabase): DataSourceOptions {
  return {
    type: 'postgres',
    url: database.url,
    schema: database.schema,
    entities: database.entities,
    migrations: database.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: database.poolSize ?? 10,
      idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
      // A connection parked that long must not be dropped unseen by a NAT or a load balancer,
      // nor keep a process (a script, a test worker) alive once nothing else does.
      keepAlive: true,
      allowExitOnIdle: true,
      application_name: `switchboard-${database.schema}`,
    },
  };
}

/**
 * Options for `TypeOrmModule.forRoot`: the data source is named after the schema, because the
 * embedded default holds every service's data source in one process.
 */
export function serviceTypeOrmOptions(
  database: ServiceDatabase,
): DataSourceOptions & { name: string } {
  return { ...serviceDataSourceOptions(database), name: database.schema };
}
