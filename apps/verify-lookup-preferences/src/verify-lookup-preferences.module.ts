import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { VerifyLookupPreferencesConfig } from './config/verify-lookup-preferences.config';
import { verifyLookupPreferencesDatabase } from './database/verify-lookup-preferences.database';

/** The verify-lookup-preferences service: one-time passcodes, lookup and consent preferences. */
@Module({})
export class VerifyLookupPreferencesModule {
  static register(config: VerifyLookupPreferencesConfig): DynamicModule {
    return {
      module: VerifyLookupPreferencesModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(verifyLookupPreferencesDatabase(config))),
        ServiceHealthModule.forService(
          'verify_lookup_preferences',
          databaseReadiness('verify_lookup_preferences'),
        ),
      ],
    };
  }
}
