import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { verifyLookupPreferencesEnv } from './config/verify-lookup-preferences.config';
import { verifyLookupPreferencesDatabase } from './database/verify-lookup-preferences.database';
import { VerifyLookupPreferencesModule } from './verify-lookup-preferences.module';

export const verifyLookupPreferencesService: ServiceProcess<typeof verifyLookupPreferencesEnv> = {
  name: 'verify_lookup_preferences',
  schema: verifyLookupPreferencesEnv,
  module: (config, parts, transport) =>
    VerifyLookupPreferencesModule.register(config, parts, transport),
  background: { consumesEvents: true },
  migrate: (config) => runMigrations(verifyLookupPreferencesDatabase(config)),
};
