import { Module } from '@nestjs/common';
import { AcceptRepository } from './accept/accept.repository';
import { SenderRules } from './accept/sender-rules';
import { SendService } from './accept/send.service';
import { MessagesHandler } from './messages.handler';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

/**
 * SMS messages: send and batch (accept), reads and timelines. Their delivery (submit, receipts,
 * inbound) is background work (`SmsDeliveryModule`), which writes through `AcceptRepository`.
 */
@Module({
  controllers: [MessagesHandler],
  providers: [SendService, SenderRules, AcceptRepository, MessagesService, MessagesRepository],
  exports: [AcceptRepository],
})
export class SmsMessagesModule {}
