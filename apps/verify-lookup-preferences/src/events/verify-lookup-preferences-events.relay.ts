import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { OutboxRelay } from '@switchboard/background';
import { pgPoolOf } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';

/** As the other services' relays: a batch per 50 ms of wake-ups under load. */
const RELAY_GATHER_MS = 50;

/** Publishes the service's committed events (`preference.*`) from its outbox onto the event bus. */
@Injectable()
export class VerifyLookupPreferencesEventsRelay
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly relay: OutboxRelay;

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG) config: VerifyLookupPreferencesConfig,
    @InjectDataSource('verify_lookup_preferences') dataSource: DataSource,
  ) {
    this.relay = new OutboxRelay(
      pgPoolOf(dataSource),
      'verify_lookup_preferences',
      eventBusFor(config),
      { gatherMs: RELAY_GATHER_MS },
    );
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
