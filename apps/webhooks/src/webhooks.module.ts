import type { DynamicModule } from '@nestjs/common';
import { Global, Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import type { ServiceParts } from '@switchboard/platform';
import { WEBHOOKS_CONFIG } from './config/webhooks.config';
import type { WebhooksConfig } from './config/webhooks.config';
import { webhooksDatabase } from './database/webhooks.database';
import { DeliveriesRepository } from './delivery/deliveries.repository';
import { EndpointsHandler } from './endpoints/endpoints.handler';
import { EndpointsRepository } from './endpoints/endpoints.repository';
import { EndpointsService } from './endpoints/endpoints.service';
import { WebhooksBackgroundModule } from './webhooks-background.module';

@Global()
@Module({})
class WebhooksConfigModule {
  static register(config: WebhooksConfig): DynamicModule {
    const provider = { provide: WEBHOOKS_CONFIG, useValue: config };
    return { module: WebhooksConfigModule, providers: [provider], exports: [provider] };
  }
}

/**
 * The webhooks service: endpoints and their secrets, the intake of every product's events from
 * the bus, and signed, retried delivery (ADR 0006). With `parts` `requests` the background work
 * (WebhooksBackgroundModule) is left out.
 */
@Module({})
export class WebhooksModule {
  static register(config: WebhooksConfig, parts: ServiceParts = 'all'): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [
        WebhooksConfigModule.register(config),
        ServiceDataModule.forService({
          database: webhooksDatabase(config),
          health: 'webhooks',
          storage: config,
        }),
        ...(parts === 'requests' ? [] : [WebhooksBackgroundModule]),
      ],
      controllers: [EndpointsHandler],
      providers: [EndpointsRepository, DeliveriesRepository, EndpointsService],
    };
  }
}
