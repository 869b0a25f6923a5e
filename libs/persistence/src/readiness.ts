import type { ReadinessCheck } from '@switchboard/platform';
import { DataSource } from 'typeorm';

/** The readiness provider of a service whose only dependency is its database. */
export const databaseReadiness = {
  inject: [DataSource],
  useFactory: (dataSource: DataSource): ReadinessCheck[] => [
    { name: 'database', check: async () => void (await dataSource.query('SELECT 1')) },
  ],
};
