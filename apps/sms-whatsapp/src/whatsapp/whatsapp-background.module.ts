import { Module } from '@nestjs/common';
import { WhatsAppTemplatesBackgroundModule } from './templates';
import { WhatsAppDispatchModule } from './dispatch/whatsapp-dispatch.module';
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
  ],
})
export class WhatsAppBackgroundModule {}
