import { DataSource } from 'typeorm';
import type { ServiceDatabase } from './data-source';
import { serviceDataSourceOptions } from './data-source';

/**
 * Creates the service's schema and applies its pending migrations, one transaction each.
 * An advisory lock keyed by the schema lets several replicas start at once safely.
 */
export async function runMigrations(database: ServiceDatabase): Promise<string[]> {
  const dataSource = new DataSource({ ...serviceDataSourceOptions(database), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock(hashtext($1))', [
      `switchboard:migrate:${database.schema}`,
    ]);
    try {
      await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${database.schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock(hashtext($1))', [
        `switchboard:migrate:${database.schema}`,
      ]);
    }
  } finally {
    await dataSource.destroy();
  }
}
