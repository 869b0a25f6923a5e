import type { DataSourceOptions } from 'typeorm';

export interface ServiceDatabase {
  /** Postgres schema the service owns; also the name of its migrations table's schema. */
  schema: string;
  url: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

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
    extra: { max: database.poolSize ?? 10, application_name: `switchboard-${database.schema}` },
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
