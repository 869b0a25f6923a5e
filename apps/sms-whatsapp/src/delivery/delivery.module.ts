import { Module } from '@nestjs/common';
import { CarriersModule } from '../carriers/carriers.module';
import { SmsKeywordsModule } from '../keywords';
import { SmsMessagesModule, SmsRetention, SmsRetentionRepository } from '../messages';
import { SmsCarrierListener } from './carrier-listener';
import { InboundRepository } from './inbound.repository';
import { ReceiptsRepository } from './receipts.repository';
import { ReceiptTimeouts } from './receipt-timeouts';
import { ReceiptsRunner } from './receipts.runner';
import { SubmitRepository } from './submit.repository';
import { SubmitRunner } from './submit.runner';

/**
 * The background part of SMS messages: submitting accepted messages to the carriers, the
 * receipts and inbound messages the carriers send back, and the messages whose final receipt
 * never came, and the messages past their 30 days. The carriers bind here, in the
 * background part only. Inbound messages go through the keyword rules (`INBOUND_RULES`).
 */
@Module({
  imports: [SmsMessagesModule, CarriersModule, SmsKeywordsModule],
  providers: [
    SubmitRepository,
    SubmitRunner,
    ReceiptsRepository,
    ReceiptsRunner,
    ReceiptTimeouts,
    InboundRepository,
    SmsCarrierListener,
    SmsRetention,
    SmsRetentionRepository,
  ],
})
export class SmsDeliveryModule {}
