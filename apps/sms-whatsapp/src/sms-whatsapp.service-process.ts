import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { smsWhatsappEnv } from './config/sms-whatsapp.config';
import { smsWhatsappDatabase } from './database/sms-whatsapp.database';
import { SmsWhatsappModule } from './sms-whatsapp.module';

export const smsWhatsappService: ServiceProcess<typeof smsWhatsappEnv> = {
  name: 'sms_whatsapp',
  schema: smsWhatsappEnv,
  module: (config, parts) => SmsWhatsappModule.register(config, parts),
  background: { consumesEvents: true },
  migrate: (config) => runMigrations(smsWhatsappDatabase(config)),
};
