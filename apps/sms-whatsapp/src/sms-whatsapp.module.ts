import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import type { SmsWhatsappConfig } from './config/sms-whatsapp.config';
import { smsWhatsappDatabase } from './database/sms-whatsapp.database';

/** The sms-whatsapp service: SMS and WhatsApp messaging. */
@Module({})
export class SmsWhatsappModule {
  static register(config: SmsWhatsappConfig): DynamicModule {
    return {
      module: SmsWhatsappModule,
      imports: [
        ServiceDataModule.forService({
          database: smsWhatsappDatabase(config),
          health: 'sms_whatsapp',
        }),
      ],
    };
  }
}
