import { Module } from '@nestjs/common';
import { ConnectorsController } from './connectors.controller';
import {
  WhatsAppBusinessAccountsController,
  WhatsAppNumbersController,
} from './whatsapp-numbers.controller';
import {
  ChannelGroupTemplatesController,
  WhatsAppTemplatesController,
} from './templates.controller';
import { WhatsAppMessagesController } from './whatsapp-messages.controller';
import { WhatsAppInteractionsController } from './whatsapp-interactions.controller';
import { WhatsAppMediaLinksController } from './whatsapp-media-links.controller';

/**
 * WhatsApp: messages, templates, numbers and business accounts under `/v1/whatsapp`, the
 * workspace API's connectors and channel groups, and Meta's webhook endpoint; all answered by
 * the sms-whatsapp service (ADR 0013).
 */
@Module({
  controllers: [
    ConnectorsController,
    WhatsAppNumbersController,
    WhatsAppBusinessAccountsController,
    WhatsAppTemplatesController,
    ChannelGroupTemplatesController,
    WhatsAppMessagesController,
    WhatsAppInteractionsController,
    WhatsAppMediaLinksController,
  ],
})
export class WhatsAppApiModule {}
