import { Module } from '@nestjs/common';
import { WhatsAppMessagesRequestModule } from './messages';
import { WhatsAppNumbersModule } from './numbers';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppNumbersModule, WhatsAppMessagesRequestModule],
})
export class WhatsAppModule {}
