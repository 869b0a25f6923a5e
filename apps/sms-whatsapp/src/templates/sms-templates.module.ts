import { Module } from '@nestjs/common';
import { SmsTemplatesHandler } from './sms-templates.handler';

/** The SMS template catalog's read API; `renderSmsTemplate` is a pure function beside it. */
@Module({ controllers: [SmsTemplatesHandler] })
export class SmsTemplatesModule {}
