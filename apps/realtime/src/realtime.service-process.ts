import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { realtimeEnv } from './config/realtime.config';
import { realtimeDatabase } from './database/realtime.database';
import { RealtimeModule } from './realtime.module';

export const realtimeService: ServiceProcess<typeof realtimeEnv> = {
  name: 'realtime',
  schema: realtimeEnv,
  module: (config) => RealtimeModule.register(config),
  migrate: (config) => runMigrations(realtimeDatabase(config)),
};
