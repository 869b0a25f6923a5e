import { Module } from '@nestjs/common';
import { WhatsAppMediaModule } from '../media';
import { WhatsAppNumbersModule } from '../numbers';
import { WhatsAppTemplatesModule } from '../templates';
import { WhatsAppAcceptRepository } from './accept/accept.repository';
import { WhatsAppSendService } from './accept/send.service';
import { WhatsAppSendRules } from './accept/send-rules';
import { WhatsAppMessagesHandler } from './messages.handler';
import { WhatsAppMessagesRepository } from './messages.repository';
import { WhatsAppMessagesService } from './messages.service';

/**
 * WhatsApp messages, the request side: send (accept), get, list and timelines. Dispatching to
 * Meta is background work (`WhatsAppDispatchModule`).
 */
@Module({
  imports: [WhatsAppNumbersModule, WhatsAppTemplatesModule, WhatsAppMediaModule],
  controllers: [WhatsAppMessagesHandler],
  providers: [
    WhatsAppSendService,
    WhatsAppSendRules,
    WhatsAppAcceptRepository,
    WhatsAppMessagesService,
    WhatsAppMessagesRepository,
  ],
})
export class WhatsAppMessagesRequestModule {}
