import {
  CommonErrors,
  ContactErrors,
  EmailErrors,
  EmailTrackingErrors,
  EmailTemplateErrors,
  NumbersErrors,
  PreferenceErrors,
  RealtimeErrors,
  SmsErrors,
  SmsRulesErrors,
  WebhookErrors,
  VoiceErrors,
  WhatsAppConnectErrors,
  WhatsAppTemplatesErrors,
  WhatsAppInteractionsErrors,
  WhatsAppMessagesErrors,
  EmailBroadcastErrors,
} from '@switchboard/contracts';
import type { ErrorCode } from '@switchboard/contracts';

/** Identifiers the API issues: `<prefix>_` and 26 lowercase base32 characters (see newId). */
const ID = /^[a-z]{1,12}_[0-9a-z]{26}$/;

/**
 * Every path parameter a route may declare, with what a value must look like and the error of a
 * value that names nothing. A value of the wrong shape (NUL, a lone surrogate, 400 characters)
 * cannot name a resource, so it is that resource's 404 before any service or query sees it. A
 * route with a parameter missing here refuses to boot.
 */
export const PATH_PARAMETERS: Record<string, { pattern: RegExp; notFound: ErrorCode }> = {
  workspace_id: { pattern: ID, notFound: CommonErrors.WorkspaceNotFound },
  realtime_app_id: { pattern: ID, notFound: RealtimeErrors.RealtimeAppNotFound },
  realtime_app_key_id: { pattern: ID, notFound: RealtimeErrors.RealtimeKeyNotFound },
  domain_id: { pattern: ID, notFound: EmailErrors.DomainNotFound },
  suppression_id: { pattern: ID, notFound: EmailErrors.SuppressionNotFound },
  message_id: { pattern: ID, notFound: EmailErrors.EmailMessageNotFound },
  broadcast_id: { pattern: ID, notFound: EmailBroadcastErrors.BroadcastNotFound },
  webhook_id: { pattern: ID, notFound: WebhookErrors.WebhookEndpointNotFound },
  contact_id: { pattern: ID, notFound: ContactErrors.ContactNotFound },
  audience_id: { pattern: ID, notFound: ContactErrors.AudienceNotFound },
  property_id: { pattern: ID, notFound: ContactErrors.ContactPropertyNotFound },
  number_id: { pattern: ID, notFound: NumbersErrors.NumberNotFound },
  order_id: { pattern: ID, notFound: NumbersErrors.NumberOrderNotFound },
  sender_id: { pattern: ID, notFound: NumbersErrors.SmsSenderNotFound },
  call_id: { pattern: ID, notFound: VoiceErrors.VoiceCallNotFound },
  whatsapp_number_id: { pattern: ID, notFound: WhatsAppConnectErrors.WhatsAppNumberNotFound },
  // A WhatsApp Business Account's waa_ id or Meta's WABA id (digits).
  business_account_ref: {
    pattern: /^([a-z]{1,12}_[0-9a-z]{26}|\d{1,32})$/,
    notFound: WhatsAppConnectErrors.WhatsAppBusinessAccountNotFound,
  },
  // A phone number in any spelling the service resolves (E.164, 00..., grouped) or a short code.
  number: { pattern: /^[+0-9 ().\-/]{3,40}$/, notFound: NumbersErrors.AvailableNumberNotFound },
  // An SMS template's id or its slug (lowercase, digits, `-`, `_`; at most 63 characters).
  template_ref: {
    pattern: /^[a-z0-9][a-z0-9_-]{0,62}$/,
    notFound: SmsRulesErrors.SmsTemplateNotFound,
  },
  sms_message_id: { pattern: ID, notFound: SmsErrors.SmsMessageNotFound },
  whatsapp_message_id: { pattern: ID, notFound: WhatsAppMessagesErrors.WhatsAppMessageNotFound },
  // An email template's id (`emt_…`) or slug.
  email_template_ref: {
    pattern: /^[a-z0-9][a-z0-9_-]{0,62}$/,
    notFound: EmailTemplateErrors.EmailTemplateNotFound,
  },
  email_template_version_id: {
    pattern: ID,
    notFound: EmailTemplateErrors.EmailTemplateVersionNotFound,
  },
  email_template_language: {
    pattern: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/,
    notFound: EmailTemplateErrors.EmailTemplateLanguageNotFound,
  },
  // A WhatsApp template's id or slug (its name at Meta: lowercase, digits, `_`; up to 512).
  whatsapp_template_ref: {
    pattern: /^[a-z0-9][a-z0-9_-]{0,511}$/,
    notFound: WhatsAppTemplatesErrors.WhatsAppTemplateNotFound,
  },
  template_version_id: {
    pattern: ID,
    notFound: WhatsAppTemplatesErrors.WhatsAppTemplateVersionNotFound,
  },
  // A BCP-47 tag (`pt-BR`) or Meta's form of it (`pt_BR`).
  template_language: {
    pattern: /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$/,
    notFound: WhatsAppTemplatesErrors.WhatsAppTemplateLanguageNotFound,
  },
  // Channel groups of the workspace API are UUIDs.
  channel_group_id: {
    pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    notFound: WhatsAppTemplatesErrors.ChannelGroupNotFound,
  },
  keyword_rule_id: { pattern: ID, notFound: SmsRulesErrors.SmsKeywordRuleNotFound },
  sms_suppression_id: { pattern: ID, notFound: SmsRulesErrors.SmsSuppressionNotFound },
  preference_id: { pattern: ID, notFound: PreferenceErrors.PreferenceNotFound },
  // Any printable value may reach the service, which answers unknown channels as unoccupied and
  // malformed names with 422; only what no name can be (control characters, 200+) stops here.
  channel_name: {
    pattern: /^[^\u0000-\u001f\u007f]{1,200}$/,
    notFound: RealtimeErrors.RealtimeChannelNotFound,
  },
  member_id: {
    pattern: /^[^\u0000-\u001f\u007f]{1,200}$/,
    notFound: RealtimeErrors.RealtimeMemberNotFound,
  },
  media_id: { pattern: ID, notFound: WhatsAppInteractionsErrors.WhatsAppMediaNotFound },
  // A signed media link: `<waf_ id>.<expiry, epoch ms>.<base64url HMAC-SHA256>`.
  // The signed tokens of tracking and unsubscribe links: `<base64url payload>.<base64url MAC>`.
  tracking_token: {
    pattern: /^[A-Za-z0-9_-]{1,7000}\.[A-Za-z0-9_-]{22}$/,
    notFound: EmailTrackingErrors.TrackingLinkNotFound,
  },
  unsubscribe_token: {
    pattern: /^[A-Za-z0-9_-]{1,7000}\.[A-Za-z0-9_-]{22}$/,
    notFound: EmailTrackingErrors.UnsubscribeLinkNotFound,
  },
  media_link: {
    pattern: /^waf_[0-9a-z]{26}\.\d{1,15}\.[A-Za-z0-9_-]{43}$/,
    notFound: WhatsAppInteractionsErrors.WhatsAppMediaLinkInvalid,
  },
};

/** The `:name` parameters of a Fastify path. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => name);
}
