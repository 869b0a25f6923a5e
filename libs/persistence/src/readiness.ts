import { getDataSourceToken } from '@nestjs/typeorm';
import type { ReadinessCheck } from '@switchboard/platform';
import type { DataSource } from 'typeorm';

/** The readiness provider of a service whose only dependency is its database (named by schema). */
export function databaseReadiness(schema: string) {
  return {
    inject: [getDataSourceToken(schema)],
    useFactory: (dataSource: DataSource): ReadinessCheck[] => [
      { name: 'database', check: async () => void (await dataSource.query('SELECT 1')) },
    ],
  };
}
