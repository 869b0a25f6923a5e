import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { MediaFetchRunner } from '../media/media-fetch.runner';
import { InboundRetention } from '../media/media-retention';
import { MediaRepository } from '../media/media.repository';
import { InteractionsRunner } from '../reactions/interactions.runner';
import { InboundRepository } from './inbound.repository';
import { LateReactionsRunner } from './late-reactions.runner';

/**
 * Inbound's background work: fetching media from Meta, carrying reactions and read receipts to
 * Meta, logging a contact's reactions that came before their message, and the retention of
 * media bytes and reaction logs.
 */
@Module({
  imports: [WhatsAppGraphModule],
  providers: [
    MediaRepository,
    MediaFetchRunner,
    InteractionsRunner,
    InboundRetention,
    InboundRepository,
    LateReactionsRunner,
  ],
})
export class WhatsAppInboundBackgroundModule {}
