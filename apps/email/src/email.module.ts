import type { DynamicModule } from '@nestjs/common';
import { Global, Module } from '@nestjs/common';
import { wakeRelay } from '@switchboard/background';
import type { ServiceParts, TransportSettings } from '@switchboard/platform';
import { ServiceDataModule } from '@switchboard/persistence';
import { EMAIL_CONFIG } from './config/email.config';
import type { EmailConfig } from './config/email.config';
import { emailDatabase } from './database/email.database';
import { BroadcastsModule } from './broadcasts';
import { EmailBackgroundModule } from './email-background.module';
import { DomainsModule } from './domains';
import { MessagesModule } from './messages/messages.module';
import { SuppressionsModule } from './suppressions';
import { EmailStatsModule } from './stats/email-stats.module';
import { TrackingModule } from './tracking/tracking.module';
import { TemplateContactsModule, TemplatesModule } from './templates';

/** The service's configuration, injectable with `@Inject(EMAIL_CONFIG)` in every feature module. */
@Global()
@Module({})
class EmailConfigModule {
  static register(config: EmailConfig): DynamicModule {
    const provider = { provide: EMAIL_CONFIG, useValue: config };
    return { module: EmailConfigModule, providers: [provider], exports: [provider] };
  }
}

/**
 * The email service: email messages, batches, sending domains, suppressions and delivery. With
 * `parts` `requests` its background work (EmailBackgroundModule) is left out.
 */
@Module({})
export class EmailModule {
  static register(
    config: EmailConfig,
    parts: ServiceParts = 'all',
    transport?: TransportSettings,
  ): DynamicModule {
    return {
      module: EmailModule,
      imports: [
        EmailConfigModule.register(config),
        ServiceDataModule.forService({
          database: emailDatabase(config),
          health: 'email',
          storage: config,
          afterWrites: (pool) => wakeRelay(pool, 'email'),
        }),
        SuppressionsModule,
        TemplateContactsModule.register(transport),
        TemplatesModule,
        DomainsModule,
        MessagesModule,
        TrackingModule,
        EmailStatsModule,
        // Broadcasts read audiences from workspace-objects: only where a transport reaches it.
        ...(transport ? [BroadcastsModule.register(transport)] : []),
        ...(parts === 'requests' ? [] : [EmailBackgroundModule]),
      ],
    };
  }
}
