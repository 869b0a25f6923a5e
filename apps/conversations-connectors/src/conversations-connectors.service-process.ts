import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { conversationsConnectorsEnv } from './config/conversations-connectors.config';
import { conversationsConnectorsDatabase } from './database/conversations-connectors.database';
import { ConversationsConnectorsModule } from './conversations-connectors.module';

export const conversationsConnectorsService: ServiceProcess<typeof conversationsConnectorsEnv> = {
  name: 'conversations_connectors',
  schema: conversationsConnectorsEnv,
  module: (config) => ConversationsConnectorsModule.register(config),
  migrate: (config) => runMigrations(conversationsConnectorsDatabase(config)),
};
