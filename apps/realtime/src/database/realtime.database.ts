import type { ServiceDatabase } from '@switchboard/persistence';
import type { RealtimeConfig } from '../config/realtime.config';
import { CreateRealtimeSchema1763800000200 } from './migrations/1763800000200-create-realtime-schema';
import { CreateRealtimeApps1763900000200 } from './migrations/1763900000200-create-realtime-apps';

export function realtimeDatabase(
  config: Pick<RealtimeConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>,
): ServiceDatabase {
  return {
    schema: 'realtime',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [CreateRealtimeSchema1763800000200, CreateRealtimeApps1763900000200],
  };
}
