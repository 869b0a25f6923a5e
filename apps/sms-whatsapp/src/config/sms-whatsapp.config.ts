import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const smsWhatsappEnv = { ...serviceEnv };
export type SmsWhatsappConfig = ConfigOf<typeof smsWhatsappEnv>;
