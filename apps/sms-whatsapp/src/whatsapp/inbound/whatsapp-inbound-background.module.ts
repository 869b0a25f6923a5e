import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { MediaFetchRunner } from '../media/media-fetch.runner';
import { InboundRetention } from '../media/media-retention';
import { MediaRepository } from '../media/media.repository';
import { InteractionsRunner } from '../reactions/interactions.runner';

/**
 * Inbound's background work: fetching media from Meta, carrying reactions and read receipts to
 * Meta, and the retention of media bytes and reaction logs.
 */
@Module({
  imports: [WhatsAppGraphModule],
  providers: [MediaRepository, MediaFetchRunner, InteractionsRunner, InboundRetention],
})
export class WhatsAppInboundBackgroundModule {}
