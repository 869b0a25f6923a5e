import { Module } from '@nestjs/common';
import { WebhookInboxRepository } from './webhook-inbox.repository';
import { WebhookIntakeService } from './webhook-intake.service';
import { WhatsAppWebhooksHandler } from './whatsapp-webhooks.handler';

/** Meta's webhook endpoint, the request side: the challenge, and signed webhooks recorded. */
@Module({
  controllers: [WhatsAppWebhooksHandler],
  providers: [WebhookIntakeService, WebhookInboxRepository],
})
export class WhatsAppWebhooksModule {}
