import { Module } from '@nestjs/common';
import { SmsKeywordRulesController } from './sms-keyword-rules.controller';
import { SmsSuppressionsController } from './sms-suppressions.controller';
import { SmsTemplatesController } from './sms-templates.controller';

/** SMS templates, keyword rules and suppressions, answered by the sms-whatsapp service. */
@Module({
  controllers: [SmsTemplatesController, SmsKeywordRulesController, SmsSuppressionsController],
})
export class SmsRulesApiModule {}
