import { Module } from '@nestjs/common';
import { WhatsAppMessagesController } from './whatsapp-messages.controller';

/**
 * WhatsApp: messages, templates, numbers and business accounts under `/v1/whatsapp`, the
 * workspace API's connectors and channel groups, and Meta's webhook endpoint; all answered by
 * the sms-whatsapp service (ADR 0013).
 */
@Module({
  controllers: [WhatsAppMessagesController],
})
export class WhatsAppApiModule {}
