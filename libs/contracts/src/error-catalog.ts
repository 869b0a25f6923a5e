import { CommonErrorCatalog } from './errors/common.errors';
import { ContactErrorCatalog } from './contacts/contacts.errors';
import { DocsErrorCatalog } from './docs/docs.errors';
import { EmailErrorCatalog } from './email/email.errors';
import { EmailTrackingErrorCatalog } from './email/tracking.errors';
import { EmailBroadcastErrorCatalog } from './email/broadcasts.errors';
import { EmailTemplateErrorCatalog } from './email/templates.errors';
import { NumbersErrorCatalog } from './numbers/numbers.errors';
import { PreferenceErrorCatalog } from './preferences/preferences.errors';
import { RealtimeErrorCatalog } from './realtime/realtime.errors';
import { SmsErrorCatalog } from './sms/sms.errors';
import { SmsRulesErrorCatalog } from './sms/sms-rules.errors';
import { LookupErrorCatalog } from './lookup/lookup.errors';
import { VerifyErrorCatalog } from './verify/verify.errors';
import { WebhookErrorCatalog } from './webhooks/webhooks.errors';
import { VoiceErrorCatalog } from './voice/voice.errors';
import { WhatsAppConnectErrorCatalog } from './whatsapp/connect.errors';
import { WhatsAppTemplatesErrorCatalog } from './whatsapp/templates.errors';
import { WhatsAppMessagesErrorCatalog } from './whatsapp/messages.errors';
import { WhatsAppWebhookErrorCatalog } from './whatsapp/webhooks.errors';
import { WhatsAppGraphErrorCatalog } from './whatsapp/graph.errors';
import { WhatsAppContentErrorCatalog } from './whatsapp/content.errors';
import { WhatsAppInteractionsErrorCatalog } from './whatsapp/interactions.errors';
import { StatsErrorCatalog } from './stats/stats.errors';

import type { ErrorDefinition } from './errors/error-definition';

export type { ErrorDefinition, ErrorType } from './errors/error-definition';
export { codesOf } from './errors/error-definition';

/**
 * Every error code Switchboard answers with, joined from the catalog of each area (a code is never
 * renamed or reused; groups: E01 request, E02 auth, E03 permission, E04 not found, E05 upstream,
 * E06 conflict, E07 rate limit, E08 billing, E09 internal). Throw sites use the area's named codes
 * (`EmailErrors.DomainNotFound`); the docs pages and the envelope read this join.
 */
export const ErrorCatalog = inCodeOrder({
  ...CommonErrorCatalog,
  ...DocsErrorCatalog,
  ...RealtimeErrorCatalog,
  ...EmailErrorCatalog,
  ...EmailTrackingErrorCatalog,
  ...EmailBroadcastErrorCatalog,
  ...EmailTemplateErrorCatalog,
  ...WebhookErrorCatalog,
  ...ContactErrorCatalog,
  ...SmsErrorCatalog,
  ...NumbersErrorCatalog,
  ...VoiceErrorCatalog,
  ...SmsRulesErrorCatalog,
  ...WhatsAppConnectErrorCatalog,
  ...WhatsAppTemplatesErrorCatalog,
  ...WhatsAppMessagesErrorCatalog,
  ...WhatsAppWebhookErrorCatalog,
  ...WhatsAppGraphErrorCatalog,
  ...WhatsAppContentErrorCatalog,
  ...WhatsAppInteractionsErrorCatalog,
  ...PreferenceErrorCatalog,
  ...LookupErrorCatalog,
  ...VerifyErrorCatalog,
  ...StatsErrorCatalog,
});

/** The areas joined, listed as the docs index lists them: by code. */
function inCodeOrder<C extends Record<string, ErrorDefinition>>(catalog: C): C {
  return Object.fromEntries(Object.entries(catalog).sort(([a], [b]) => a.localeCompare(b))) as C;
}

export type ErrorCode = keyof typeof ErrorCatalog;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ErrorCatalog, value);
}
