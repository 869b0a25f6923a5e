import type { ContactsRpc } from './contacts/contacts.rpc';
import type { DocsRpc } from './docs/docs.rpc';
import type { EmailRpc } from './email/email.rpc';
import type { EmailTrackingRpc } from './email/tracking';
import type { EmailBroadcastsRpc } from './email/broadcasts.rpc';
import type { EmailTemplatesRpc } from './email/templates.rpc';
import type { NumbersRpc } from './numbers/numbers.rpc';
import type { PreferencesRpc } from './preferences/preferences.rpc';
import type { RealtimeRpc } from './realtime/realtime.rpc';
import type { Rpc } from './rpc';
import type { SmsRpc } from './sms/sms.rpc';
import type { ServiceName } from './services';
import type { SmsRulesRpc } from './sms/sms-rules.rpc';
import type { LookupRpc } from './lookup/lookup.rpc';
import type { VerifyRpc } from './verify/verify.rpc';
import type { WebhooksRpc } from './webhooks/webhooks.rpc';
import type { VoiceRpc } from './voice/voice.rpc';
import type { WhatsAppConnectRpc } from './whatsapp/connect.rpc';
import type { WhatsAppTemplatesRpc } from './whatsapp/templates.rpc';
import type { WhatsAppMessagesRpc } from './whatsapp/whatsapp-messages.rpc';
import type { WhatsAppWebhooksRpc } from './whatsapp/webhooks.rpc';
import type { WhatsAppInteractionsRpc } from './whatsapp/interactions.rpc';
import type { SmsStatsRpc } from './stats/sms-stats';
import type { EmailStatsRpc } from './stats/email-stats';
import type { WhatsAppStatsRpc } from './stats/whatsapp-stats';

export type HealthSubject = `${ServiceName}.health.check`;

/** The readiness probe every service answers (its database and handlers are up). */
export type HealthRpc = {
  [S in HealthSubject]: Rpc<Record<string, never>, { service: string; status: string }>;
};

/** Every operation of every service, by subject: the one source of the transport's types. */
export interface RpcMap
  extends
    DocsRpc,
    RealtimeRpc,
    EmailRpc,
    EmailTrackingRpc,
    EmailBroadcastsRpc,
    EmailTemplatesRpc,
    WebhooksRpc,
    ContactsRpc,
    SmsRpc,
    SmsRulesRpc,
    NumbersRpc,
    VoiceRpc,
    WhatsAppConnectRpc,
    WhatsAppTemplatesRpc,
    WhatsAppMessagesRpc,
    WhatsAppWebhooksRpc,
    WhatsAppInteractionsRpc,
    PreferencesRpc,
    LookupRpc,
    VerifyRpc,
    SmsStatsRpc,
    EmailStatsRpc,
    WhatsAppStatsRpc,
    HealthRpc {}

export type Subject = keyof RpcMap;
export type RequestOf<S extends Subject> = RpcMap[S]['request'];
export type ReplyOf<S extends Subject> = RpcMap[S]['reply'];
