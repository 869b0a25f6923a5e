import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { docsEnv } from './config/docs.config';
import { docsDatabase } from './database/docs.database';
import { DocsModule } from './docs.module';

export const docsService: ServiceProcess<typeof docsEnv> = {
  name: 'docs',
  schema: docsEnv,
  module: (config) => DocsModule.register(config),
  migrate: (config) => runMigrations(docsDatabase(config)),
};
