import { Module } from '@nestjs/common';

/**
 * WhatsApp's background work: dispatching accepted messages to Meta, processing the webhook
 * inbox, fetching inbound media, syncing templates and numbers, expiring what retention bounds.
 */
@Module({
  imports: [],
})
export class WhatsAppBackgroundModule {}
