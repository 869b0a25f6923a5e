import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { webhooksEnv } from './config/webhooks.config';
import { webhooksDatabase } from './database/webhooks.database';
import { WebhooksModule } from './webhooks.module';

export const webhooksService: ServiceProcess<typeof webhooksEnv> = {
  name: 'webhooks',
  schema: webhooksEnv,
  module: (config, parts) => WebhooksModule.register(config, parts),
  background: { consumesEvents: true },
  migrate: (config) => runMigrations(webhooksDatabase(config)),
};
