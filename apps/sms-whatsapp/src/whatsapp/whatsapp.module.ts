import { Module } from '@nestjs/common';
import { WhatsAppWebhooksModule } from './webhooks/whatsapp-webhooks.module';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppWebhooksModule],
})
export class WhatsAppModule {}
