import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { WhatsAppDispatchRunner } from './dispatch.runner';
import { DispatchRepository } from './dispatch.repository';
import { WhatsAppMessagesRetention } from './messages-retention';

/**
 * WhatsApp messages, the background side: dispatching accepted messages to Meta through the
 * Graph client, and the retention bounds (wamids after 15 days, messages after 30).
 */
@Module({
  imports: [WhatsAppGraphModule],
  providers: [DispatchRepository, WhatsAppDispatchRunner, WhatsAppMessagesRetention],
})
export class WhatsAppDispatchModule {}
