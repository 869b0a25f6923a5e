import { Module } from '@nestjs/common';
import { WhatsAppInteractionsModule } from './inbound/whatsapp-interactions.module';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppInteractionsModule],
})
export class WhatsAppModule {}
