import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { emailEnv } from './config/email.config';
import { emailDatabase } from './database/email.database';
import { EmailModule } from './email.module';

export const emailService: ServiceProcess<typeof emailEnv> = {
  name: 'email',
  schema: emailEnv,
  module: (config, parts, transport) => EmailModule.register(config, parts, transport),
  background: { consumesEvents: true },
  migrate: (config) => runMigrations(emailDatabase(config)),
};
