import { Module } from '@nestjs/common';
import { SmsSuppressionsHandler } from './sms-suppressions.handler';
import { SmsSuppressionsRepository } from './sms-suppressions.repository';
import { SmsSuppressionsService } from './sms-suppressions.service';

/**
 * SMS suppression episodes. Exports `SmsSuppressionsService` for the keyword rules (STOP, START);
 * needs the `sms_whatsapp` data source.
 */
@Module({
  controllers: [SmsSuppressionsHandler],
  providers: [SmsSuppressionsRepository, SmsSuppressionsService],
  exports: [SmsSuppressionsService],
})
export class SmsSuppressionsModule {}
