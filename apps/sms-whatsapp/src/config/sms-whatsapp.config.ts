import { preferenceEnforcementEnv, storageEnv } from '@switchboard/persistence';
import { env, publicUrlEnv, serviceEnv } from '@switchboard/platform';
import type { ConfigOf, EnvVar } from '@switchboard/platform';
import { parseSmppUrl } from '../carriers/smpp-url';
import type { SmppCarrierConfig } from '../carriers/smpp-url';

const smppUrl: EnvVar<SmppCarrierConfig[] | undefined> = {
  kind: 'url',
  required: false,
  secret: true,
  description:
    'SMPP carriers, comma-separated smpp://<system_id>:<password>@<host>:<port> (ssmpp:// for TLS), each with optional ?name=&window=&tps=&sender_tps=&prefixes=31;32&system_type=&enquire_link=&submit_timeout=&receipt_ids=same|hex|decimal; unset: no carrier, SMS sends are refused',
  parse: parseSmppUrl,
};

/** Contract section 10: Meta's Cloud API, and the legacy channel source WhatsApp numbers migrate from. */
const whatsappEnv = {
  WHATSAPP_GRAPH_URL: env.string({
    default: 'https://graph.facebook.com/v23.0',
    description: "Meta's Graph API base, with its version; tests point it at a local stand-in",
  }),
  WHATSAPP_ACCESS_TOKEN: env.optionalString({
    secret: true,
    description:
      'The system-user token sent as Bearer on every Graph call; unset: WhatsApp numbers cannot be connected and sends are refused',
  }),
  WHATSAPP_APP_SECRET: env.optionalString({
    secret: true,
    description:
      "The Meta app's secret: verifies X-Hub-Signature-256 on every webhook POST; unset: every webhook POST is refused",
  }),
  WHATSAPP_VERIFY_TOKEN: env.optionalString({
    secret: true,
    description:
      "Answers Meta's webhook subscription challenge (GET /webhooks/whatsapp); unset: every challenge is refused",
  }),
  WHATSAPP_META_SYNC_SECONDS: env.int({
    default: 3600,
    min: 5,
    max: 86_400,
    description:
      'How often each connected WhatsApp number and business account is re-read from Meta (status, quality rating, messaging limit); the SDK documents roughly hourly',
  }),
  WHATSAPP_TEMPLATE_SYNC_INTERVAL_SECONDS: env.int({
    default: 900,
    min: 10,
    max: 86_400,
    description:
      "How often each connected business account's templates are synced from Meta, in seconds (Meta's status webhooks apply in between)",
  }),
  WHATSAPP_UNKNOWN_NUMBER_GRACE_SECONDS: env.int({
    default: 300,
    min: 0,
    max: 86_400,
    description:
      'How long a webhook for a phone number id no workspace has connected is retried (Meta may post while the number is being connected) before it is kept as processed with a note',
  }),
  CP_URL: env.optionalString({
    description:
      'The legacy connectivity platform whose WhatsApp channels a connector with isCpMigrated migrates; unset: such connectors are refused',
  }),
};

export const smsWhatsappEnv = {
  ...serviceEnv,
  ...storageEnv,
  ...preferenceEnforcementEnv,
  ...publicUrlEnv,
  SMPP_URL: smppUrl,
  SMS_RECEIPT_TIMEOUT_SECONDS: env.int({
    default: 259_200,
    min: 1,
    max: 2_592_000,
    description:
      'How long a message handed to a carrier waits for its final receipt before it is expired (last_error unknown, sms.expired), in seconds; 72 hours by default, past the validity carriers usually keep',
  }),
  ...whatsappEnv,
};
export type SmsWhatsappConfig = ConfigOf<typeof smsWhatsappEnv>;

/** The injection token of the service's `SmsWhatsappConfig` (global in the service). */
export const SMS_WHATSAPP_CONFIG = Symbol('SMS_WHATSAPP_CONFIG');
