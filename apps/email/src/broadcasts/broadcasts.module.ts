import { Global, Module } from '@nestjs/common';
import type { DynamicModule, OnApplicationShutdown } from '@nestjs/common';
import { ServiceClient } from '@switchboard/platform';
import type { TransportSettings } from '@switchboard/platform';
import { DomainsModule } from '../domains';
import { MessagesModule } from '../messages/messages.module';
import { SuppressionsModule } from '../suppressions';
import { PublishedTemplatesModule, TEMPLATE_USAGE } from '../templates';
import { AUDIENCE_SNAPSHOTS, AudienceSnapshots } from './audience-snapshots';
import { BroadcastInsightsService } from './broadcast-insights.service';
import { BroadcastMessagesRepository } from './broadcast-messages.repository';
import { BroadcastPreparation } from './broadcast-preparation';
import { BroadcastReadsRepository } from './broadcast-reads.repository';
import { BroadcastRequirements } from './broadcast-requirements';
import { BroadcastSendsService } from './broadcast-sends.service';
import { BroadcastStates } from './broadcast-states';
import { BroadcastTemplateUsage } from './broadcast-template-usage';
import { BROADCAST_TEMPLATES } from './broadcast-templates';
import { BroadcastsHandler } from './broadcasts.handler';
import { BroadcastsRepository } from './broadcasts.repository';
import { BroadcastsService } from './broadcasts.service';
import { PublishedBroadcastTemplates } from './published-broadcast-templates';

/**
 * The templates area's delete hook (`TEMPLATE_USAGE`): global, so the templates module sees it
 * wherever broadcasts exist.
 */
@Global()
@Module({
  providers: [BroadcastsRepository, { provide: TEMPLATE_USAGE, useClass: BroadcastTemplateUsage }],
  exports: [TEMPLATE_USAGE],
})
class BroadcastTemplateUsageModule {}

/** The client broadcasts ask the workspace-objects service with; closed with the service. */
class AudienceServicesClient extends ServiceClient implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/**
 * Email broadcasts. `transport` is how the workspace-objects service (audiences) is reached, so
 * the module exists only where a transport does: the service's own process, or the request side
 * of the embedded default, which therefore also runs the preparation queue (`email.broadcast`);
 * the messages it writes are processed and delivered by the usual queues wherever they run.
 */
@Module({})
export class BroadcastsModule {
  static register(transport: TransportSettings): DynamicModule {
    return {
      module: BroadcastsModule,
      imports: [
        DomainsModule,
        MessagesModule,
        SuppressionsModule,
        PublishedTemplatesModule,
        BroadcastTemplateUsageModule,
      ],
      controllers: [BroadcastsHandler],
      providers: [
        {
          provide: AudienceServicesClient,
          useFactory: () => new AudienceServicesClient(transport, 'email'),
        },
        {
          provide: AUDIENCE_SNAPSHOTS,
          inject: [AudienceServicesClient],
          useFactory: (services: ServiceClient) => new AudienceSnapshots(services),
        },
        { provide: BROADCAST_TEMPLATES, useClass: PublishedBroadcastTemplates },
        BroadcastsRepository,
        BroadcastReadsRepository,
        BroadcastMessagesRepository,
        BroadcastRequirements,
        BroadcastsService,
        BroadcastSendsService,
        BroadcastInsightsService,
        BroadcastStates,
        BroadcastPreparation,
      ],
      exports: [BroadcastsService, BroadcastInsightsService],
    };
  }
}
