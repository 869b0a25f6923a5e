import { Module } from '@nestjs/common';
import { WhatsAppDispatchModule } from './dispatch/whatsapp-dispatch.module';
import { WhatsAppInboundBackgroundModule } from './inbound/whatsapp-inbound-background.module';
import { MetaSyncModule } from './numbers';
import { WhatsAppTemplatesBackgroundModule } from './templates';
import { WhatsAppWebhooksBackgroundModule } from './webhooks/whatsapp-webhooks-background.module';

/**
 * WhatsApp's background work: dispatching accepted messages to Meta, processing the webhook
 * inbox, fetching inbound media, syncing templates and numbers, expiring what retention bounds.
 */
@Module({
  imports: [
    WhatsAppWebhooksBackgroundModule,
    WhatsAppTemplatesBackgroundModule,
    WhatsAppDispatchModule,
    WhatsAppInboundBackgroundModule,
    MetaSyncModule,
  ],
})
export class WhatsAppBackgroundModule {}
