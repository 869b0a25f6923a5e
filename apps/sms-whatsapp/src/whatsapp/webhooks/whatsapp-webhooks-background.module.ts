import { Module } from '@nestjs/common';
import { WhatsAppNumbersModule } from '../numbers';
import { TemplateSyncService, WhatsAppTemplatesModule } from '../templates';
import { MetaStatusApplier, WhatsAppMessagesModule } from '../messages';
import { WHATSAPP_STATUS_APPLIER, WHATSAPP_TEMPLATE_STATUS_APPLIER } from './webhook-appliers';
import { WhatsAppInboundModule } from '../inbound/whatsapp-inbound.module';
import { WebhookAccountsRepository } from './webhook-accounts.repository';
import { WebhookChangesApplier } from './webhook-changes.applier';
import { WebhookInboxRepository } from './webhook-inbox.repository';
import { WebhookInboxRetention } from './webhook-inbox.retention';
import { WebhookProcessorRunner } from './webhook-processor.runner';

/**
 * Processing the webhook inbox. The areas that apply its changes provide their appliers here
 * (`WHATSAPP_STATUS_APPLIER`, `WHATSAPP_INBOUND_SINK`, `WHATSAPP_TEMPLATE_STATUS_APPLIER`):
 * import their module and add `{ provide: TOKEN, useExisting: TheirClass }`.
 */
@Module({
  imports: [
    WhatsAppNumbersModule,
    WhatsAppTemplatesModule,
    WhatsAppMessagesModule,
    WhatsAppInboundModule,
  ],
  providers: [
    WebhookInboxRepository,
    WebhookAccountsRepository,
    WebhookChangesApplier,
    WebhookProcessorRunner,
    WebhookInboxRetention,
    { provide: WHATSAPP_TEMPLATE_STATUS_APPLIER, useExisting: TemplateSyncService },
    { provide: WHATSAPP_STATUS_APPLIER, useExisting: MetaStatusApplier },
  ],
})
export class WhatsAppWebhooksBackgroundModule {}
