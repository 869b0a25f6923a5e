import { storageEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const smsWhatsappEnv = { ...serviceEnv, ...storageEnv };
export type SmsWhatsappConfig = ConfigOf<typeof smsWhatsappEnv>;

/** The injection token of the service's `SmsWhatsappConfig` (global in the service). */
export const SMS_WHATSAPP_CONFIG = Symbol('SMS_WHATSAPP_CONFIG');
