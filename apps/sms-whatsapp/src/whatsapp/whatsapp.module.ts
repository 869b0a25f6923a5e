import { Module } from '@nestjs/common';
import { WhatsAppMessagesRequestModule } from './messages';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppMessagesRequestModule],
})
export class WhatsAppModule {}
