import { Module } from '@nestjs/common';
import { SmsSendersHandler } from './sms-senders.handler';
import { SmsSendersRepository } from './sms-senders.repository';
import { SmsSendersService } from './sms-senders.service';

/** The alphanumeric SMS senders the operator registers per workspace. */
@Module({
  controllers: [SmsSendersHandler],
  providers: [SmsSendersRepository, SmsSendersService],
})
export class SmsSendersModule {}
