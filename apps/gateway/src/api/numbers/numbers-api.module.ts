import { Module } from '@nestjs/common';
import { NumbersAdminController, SmsSendersAdminController } from './numbers-admin.controller';
import { NumbersController } from './numbers.controller';
import { OperatorForwarder } from './operator-forwarder';

/** Numbers and their orders, and the operator's stock and SMS senders (sms-whatsapp service). */
@Module({
  controllers: [NumbersController, NumbersAdminController, SmsSendersAdminController],
  providers: [OperatorForwarder],
  exports: [OperatorForwarder],
})
export class NumbersApiModule {}
