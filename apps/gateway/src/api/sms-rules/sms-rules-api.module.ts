import { Module } from '@nestjs/common';
import { SmsTemplatesController } from './sms-templates.controller';

/** SMS templates, keyword rules and suppressions, answered by the sms-whatsapp service. */
@Module({ controllers: [SmsTemplatesController] })
export class SmsRulesApiModule {}
