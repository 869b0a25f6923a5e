import { storageEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf, EnvVar } from '@switchboard/platform';
import { parseSmppUrl } from '../carriers/smpp-url';
import type { SmppCarrierConfig } from '../carriers/smpp-url';

const smppUrl: EnvVar<SmppCarrierConfig[] | undefined> = {
  kind: 'url',
  required: false,
  secret: true,
  description:
    'SMPP carriers, comma-separated smpp://<system_id>:<password>@<host>:<port> (ssmpp:// for TLS), each with optional ?name=&window=&tps=&prefixes=31;32&system_type=&enquire_link=&submit_timeout=&receipt_ids=same|hex|decimal; unset: no carrier, SMS sends are refused',
  parse: parseSmppUrl,
};

export const smsWhatsappEnv = { ...serviceEnv, ...storageEnv, SMPP_URL: smppUrl };
export type SmsWhatsappConfig = ConfigOf<typeof smsWhatsappEnv>;

/** The injection token of the service's `SmsWhatsappConfig` (global in the service). */
export const SMS_WHATSAPP_CONFIG = Symbol('SMS_WHATSAPP_CONFIG');
