import type { DynamicModule } from '@nestjs/common';
import { Global, Module } from '@nestjs/common';
import { wakeRelay } from '@switchboard/background';
import type { ServiceParts } from '@switchboard/platform';
import { ServiceDataModule } from '@switchboard/persistence';
import { SMS_WHATSAPP_CONFIG } from './config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from './config/sms-whatsapp.config';
import { smsWhatsappDatabase } from './database/sms-whatsapp.database';
import { SmsMessagesModule } from './messages';
import { SmsWhatsappBackgroundModule } from './sms-whatsapp-background.module';
import { NumbersModule } from './numbers';
import { SmsSendersModule } from './senders';
import { VoiceCallsModule } from './voice';
import { SmsKeywordsModule } from './keywords';
import { SmsSuppressionsModule } from './suppressions';
import { SmsTemplatesModule } from './templates';
import { WhatsAppModule } from './whatsapp/whatsapp.module';
import { StatsModule } from './stats';

/** The service's configuration, injectable with `@Inject(SMS_WHATSAPP_CONFIG)` in every feature module. */
@Global()
@Module({})
class SmsWhatsappConfigModule {
  static register(config: SmsWhatsappConfig): DynamicModule {
    const provider = { provide: SMS_WHATSAPP_CONFIG, useValue: config };
    return { module: SmsWhatsappConfigModule, providers: [provider], exports: [provider] };
  }
}

/**
 * The sms-whatsapp service: SMS messages, carriers, keywords and suppressions, numbers, senders
 * and voice call records. With `parts` `requests` its background work is left out.
 */
@Module({})
export class SmsWhatsappModule {
  static register(config: SmsWhatsappConfig, parts: ServiceParts = 'all'): DynamicModule {
    return {
      module: SmsWhatsappModule,
      imports: [
        SmsWhatsappConfigModule.register(config),
        ServiceDataModule.forService({
          database: smsWhatsappDatabase(config),
          health: 'sms_whatsapp',
          storage: config,
          afterWrites: (pool) => wakeRelay(pool, 'sms_whatsapp'),
        }),
        SmsMessagesModule,
        NumbersModule,
        SmsSendersModule,
        VoiceCallsModule,
        SmsTemplatesModule,
        SmsSuppressionsModule,
        SmsKeywordsModule,
        WhatsAppModule,
        StatsModule,
        ...(parts === 'requests' ? [] : [SmsWhatsappBackgroundModule]),
      ],
    };
  }
}
