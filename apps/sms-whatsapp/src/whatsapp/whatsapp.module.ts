import { Module } from '@nestjs/common';
import { WhatsAppTemplatesModule } from './templates';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppTemplatesModule],
})
export class WhatsAppModule {}
