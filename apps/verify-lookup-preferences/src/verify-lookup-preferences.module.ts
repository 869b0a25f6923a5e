import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import type { VerifyLookupPreferencesConfig } from './config/verify-lookup-preferences.config';
import { verifyLookupPreferencesDatabase } from './database/verify-lookup-preferences.database';

/** The verify-lookup-preferences service: one-time passcodes, lookup and consent preferences. */
@Module({})
export class VerifyLookupPreferencesModule {
  static register(config: VerifyLookupPreferencesConfig): DynamicModule {
    return {
      module: VerifyLookupPreferencesModule,
      imports: [
        ServiceDataModule.forService({
          database: verifyLookupPreferencesDatabase(config),
          health: 'verify_lookup_preferences',
        }),
      ],
    };
  }
}
