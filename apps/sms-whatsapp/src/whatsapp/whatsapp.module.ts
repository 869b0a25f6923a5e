import { Module } from '@nestjs/common';
import { WhatsAppNumbersModule } from './numbers';
import { WhatsAppTemplatesModule } from './templates';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppNumbersModule, WhatsAppTemplatesModule],
})
export class WhatsAppModule {}
