import { Module } from '@nestjs/common';
import { WhatsAppInteractionsModule } from './inbound/whatsapp-interactions.module';
import { WhatsAppNumbersModule } from './numbers';
import { WhatsAppWebhooksModule } from './webhooks/whatsapp-webhooks.module';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppNumbersModule, WhatsAppWebhooksModule, WhatsAppInteractionsModule],
})
export class WhatsAppModule {}
