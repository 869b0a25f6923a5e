import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { WhatsAppMessagesModule } from '../messages';
import { WhatsAppDispatchRunner } from './dispatch.runner';
import { LateStatusesRunner } from './late-statuses.runner';
import { DispatchRepository } from './dispatch.repository';
import { WhatsAppMessagesRetention } from './messages-retention';
import { MessagesRetentionRepository } from './messages-retention.repository';

/**
 * WhatsApp messages, the background side: dispatching accepted messages to Meta through the
 * Graph client, statuses Meta reported before their wamid was recorded, and the retention
 * bounds (wamids after 15 days, messages after 30).
 */
@Module({
  imports: [WhatsAppGraphModule, WhatsAppMessagesModule],
  providers: [
    DispatchRepository,
    WhatsAppDispatchRunner,
    LateStatusesRunner,
    WhatsAppMessagesRetention,
    MessagesRetentionRepository,
  ],
})
export class WhatsAppDispatchModule {}
