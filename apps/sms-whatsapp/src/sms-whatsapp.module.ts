import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { SmsWhatsappConfig } from './config/sms-whatsapp.config';
import { smsWhatsappDatabase } from './database/sms-whatsapp.database';

/** The sms-whatsapp service: SMS and WhatsApp messaging. */
@Module({})
export class SmsWhatsappModule {
  static register(config: SmsWhatsappConfig): DynamicModule {
    return {
      module: SmsWhatsappModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(smsWhatsappDatabase(config))),
        ServiceHealthModule.forService('sms_whatsapp', databaseReadiness('sms_whatsapp')),
      ],
    };
  }
}
