import type { DynamicModule } from '@nestjs/common';
import { Global, Module } from '@nestjs/common';
import { wakeRelay } from '@switchboard/background';
import type { ServiceParts, TransportSettings } from '@switchboard/platform';
import { ServiceDataModule } from '@switchboard/persistence';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from './config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from './config/verify-lookup-preferences.config';
import { verifyLookupPreferencesDatabase } from './database/verify-lookup-preferences.database';
import { LookupModule } from './lookup';
import { PreferencesModule } from './preferences';
import { VerifyModule } from './verify';
import { VerifyLookupPreferencesBackgroundModule } from './verify-lookup-preferences-background.module';

/** The service's configuration, injectable with `@Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)`. */
@Global()
@Module({})
class VerifyLookupPreferencesConfigModule {
  static register(config: VerifyLookupPreferencesConfig): DynamicModule {
    const provider = { provide: VERIFY_LOOKUP_PREFERENCES_CONFIG, useValue: config };
    return {
      module: VerifyLookupPreferencesConfigModule,
      providers: [provider],
      exports: [provider],
    };
  }
}

/**
 * The verify-lookup-preferences service: one-time passcodes, lookup and consent preferences.
 * With `parts` `requests` its background work (the outbox relay, the consumer of the channels'
 * delivery events) is left out.
 */
@Module({})
export class VerifyLookupPreferencesModule {
  static register(
    config: VerifyLookupPreferencesConfig,
    parts: ServiceParts = 'all',
    transport?: TransportSettings,
  ): DynamicModule {
    return {
      module: VerifyLookupPreferencesModule,
      imports: [
        VerifyLookupPreferencesConfigModule.register(config),
        ServiceDataModule.forService({
          database: verifyLookupPreferencesDatabase(config),
          health: 'verify_lookup_preferences',
          storage: config,
          afterWrites: (pool) => wakeRelay(pool, 'verify_lookup_preferences'),
        }),
        LookupModule,
        PreferencesModule,
        // Verifications send through the channel services: only where a transport reaches them.
        ...(transport ? [VerifyModule.register(transport)] : []),
        ...(parts === 'requests' ? [] : [VerifyLookupPreferencesBackgroundModule]),
      ],
    };
  }
}
