import { Module } from '@nestjs/common';
import { SmsMessagesModule } from '../messages';
import { SmsCarrierListener } from './carrier-listener';
import { InboundRepository } from './inbound.repository';
import { ReceiptsRepository } from './receipts.repository';
import { ReceiptsRunner } from './receipts.runner';
import { SubmitRepository } from './submit.repository';
import { SubmitRunner } from './submit.runner';

/**
 * The background part of SMS messages: submitting accepted messages to the carriers, the
 * receipts and inbound messages the carriers send back. Needs `SMS_CARRIERS` (the carriers
 * module) and, for inbound keywords, `INBOUND_RULES`, both from modules of their own.
 */
@Module({
  imports: [SmsMessagesModule],
  providers: [
    SubmitRepository,
    SubmitRunner,
    ReceiptsRepository,
    ReceiptsRunner,
    InboundRepository,
    SmsCarrierListener,
  ],
})
export class SmsDeliveryModule {}
