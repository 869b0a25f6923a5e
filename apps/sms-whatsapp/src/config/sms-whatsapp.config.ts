import { databaseEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const smsWhatsappEnv = { ...serviceEnv, ...databaseEnv };
export type SmsWhatsappConfig = ConfigOf<typeof smsWhatsappEnv>;
