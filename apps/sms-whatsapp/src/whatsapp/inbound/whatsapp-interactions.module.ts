import { Module } from '@nestjs/common';
import { MediaRepository } from '../media/media.repository';
import { MediaService } from '../media/media.service';
import { InteractionsRepository } from '../reactions/interactions.repository';
import { InteractionsService } from '../reactions/interactions.service';
import { InteractionsHandler } from './interactions.handler';

/** Read receipts, reactions and inbound media links, the request side (accepted, then queued). */
@Module({
  controllers: [InteractionsHandler],
  providers: [InteractionsRepository, InteractionsService, MediaRepository, MediaService],
})
export class WhatsAppInteractionsModule {}
