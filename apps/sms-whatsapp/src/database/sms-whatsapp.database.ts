import type { ServiceDatabase } from '@switchboard/persistence';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { CreateSmsWhatsappSchema1763800000300 } from './migrations/1763800000300-create-sms-whatsapp-schema';
import { CreateSmsFoundations1764400000000 } from './migrations/1764400000000-create-sms-foundations';
import { CreateSmsMessages1764400000100 } from './migrations/1764400000100-create-sms-messages';
import { CreateSmsKeywordRules1764400000200 } from './migrations/1764400000200-create-sms-keyword-rules';
import { CreateNumberOrdersAndVoiceCalls1764400000300 } from './migrations/1764400000300-create-number-orders-and-voice-calls';
import { CreateWhatsapp1764600000000 } from './migrations/1764600000000-create-whatsapp';
import { WhatsappTemplateSync1764600000410 } from './migrations/1764600000410-whatsapp-template-sync';
import { CreateSmsWhatsappPreferenceStates1764800000200 } from './migrations/1764800000200-create-sms-whatsapp-preference-states';
import { SmsSystemSendKeys1764800000500 } from './migrations/1764800000500-sms-system-send-keys';
import { CreateStatsRollups1764900000400 } from './migrations/1764900000400-create-stats-rollups';
import { CreateWhatsappStatsRollups1764900000410 } from './migrations/1764900000410-create-whatsapp-stats-rollups';
import { SmsAwaitingReceipt1765000000100 } from './migrations/1765000000100-sms-awaiting-receipt';
import { SmsRedactedText1765000000200 } from './migrations/1765000000200-sms-redacted-text';
import { SmsMessagesCreatedIndex1765000000300 } from './migrations/1765000000300-sms-messages-created-index';
import { SmsInboundParts1765000000400 } from './migrations/1765000000400-sms-inbound-parts';
import { SmsSystemSendKeyUnique1765000000500 } from './migrations/1765000000500-sms-system-send-key-unique';
import { ShortCodesPerCountry1765000000600 } from './migrations/1765000000600-short-codes-per-country';

export function smsWhatsappDatabase(config: SmsWhatsappConfig): ServiceDatabase {
  return {
    schema: 'sms_whatsapp',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [
      CreateSmsWhatsappSchema1763800000300,
      CreateSmsFoundations1764400000000,
      CreateSmsMessages1764400000100,
      CreateSmsKeywordRules1764400000200,
      CreateNumberOrdersAndVoiceCalls1764400000300,
      CreateWhatsapp1764600000000,
      WhatsappTemplateSync1764600000410,
      CreateSmsWhatsappPreferenceStates1764800000200,
      SmsSystemSendKeys1764800000500,
      CreateStatsRollups1764900000400,
      CreateWhatsappStatsRollups1764900000410,
      SmsAwaitingReceipt1765000000100,
      SmsRedactedText1765000000200,
      SmsMessagesCreatedIndex1765000000300,
      SmsInboundParts1765000000400,
      SmsSystemSendKeyUnique1765000000500,
      ShortCodesPerCountry1765000000600,
    ],
  };
}
