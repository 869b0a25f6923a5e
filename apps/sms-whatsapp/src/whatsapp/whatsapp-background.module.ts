import { Module } from '@nestjs/common';
import { WhatsAppDispatchModule } from './dispatch/whatsapp-dispatch.module';

/**
 * WhatsApp's background work: dispatching accepted messages to Meta, processing the webhook
 * inbox, fetching inbound media, syncing templates and numbers, expiring what retention bounds.
 */
@Module({
  imports: [WhatsAppDispatchModule],
})
export class WhatsAppBackgroundModule {}
