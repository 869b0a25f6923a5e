import { Module } from '@nestjs/common';
import { InboundMediaUrls } from './inbound-media-urls';
import { MediaRepository } from './media.repository';

/** What the messages area's reads use of inbound media (`InboundMediaUrls`). */
@Module({
  providers: [MediaRepository, InboundMediaUrls],
  exports: [InboundMediaUrls],
})
export class WhatsAppMediaModule {}
