import { Module } from '@nestjs/common';
import { SmsMessagesController } from './sms.controller';

/** SMS messages, answered by the sms-whatsapp service. */
@Module({
  controllers: [SmsMessagesController],
})
export class SmsApiModule {}
