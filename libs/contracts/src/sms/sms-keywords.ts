/**
 * SMS keyword rules (`bird.smsKeywordRules`): what an inbound SMS whose whole text is a keyword
 * does. The platform ships default (`system`, `sks_`) rules per covered country; a workspace adds
 * its own (`skw_`), which outrank the default for their country (or number).
 */

export const SmsKeywordRuleSubjects = {
  List: 'sms_whatsapp.sms_keyword_rule.list',
  Get: 'sms_whatsapp.sms_keyword_rule.get',
  Create: 'sms_whatsapp.sms_keyword_rule.create',
  Update: 'sms_whatsapp.sms_keyword_rule.update',
  Delete: 'sms_whatsapp.sms_keyword_rule.delete',
} as const;

export const SMS_KEYWORD_OPERATIONS = [
  'stop',
  'start',
  'help',
  'info',
  'confirm',
  'custom',
] as const;
export type SmsKeywordOperation = (typeof SMS_KEYWORD_OPERATIONS)[number];
export const SMS_KEYWORD_RULE_SCOPES = ['system', 'workspace'] as const;
export type SmsKeywordRuleScope = (typeof SMS_KEYWORD_RULE_SCOPES)[number];

/** Bounds of a workspace rule (the SDK states none; these keep a rule one SMS-sized thing). */
export const SMS_KEYWORD_LIMITS = {
  keywordsPerRule: 20,
  keywordLength: 30,
  replyLength: 300,
} as const;

export interface SmsKeywordRule {
  id: string;
  scope: SmsKeywordRuleScope;
  operation: SmsKeywordOperation;
  /** ISO 3166-1 alpha-2; null only on a worldwide `custom` rule. */
  country: string | null;
  /** Only where the country ships more than one language (CA: `en`, `fr`). */
  language: string | null;
  /** One of the workspace's numbers (E.164 or a short code), or null for every number. */
  number: string | null;
  /** A default's full set; a workspace rule's own additions only. */
  keywords: string[];
  effective_keywords: string[];
  reply: string | null;
  reply_suffix: string | null;
  reply_disabled_at: string | null;
  mandatory: boolean;
  created_at: string;
  updated_at: string;
}

export interface SmsKeywordRuleList {
  data: SmsKeywordRule[];
}

/** `GET /v1/sms/keyword-rules`: everything that applies, most specific first; not paginated. */
export interface ListSmsKeywordRulesRequest {
  country?: string;
  number?: string;
  /** With `number`: the rules someone texting from this country gets. */
  from_country?: string;
  operation?: SmsKeywordOperation;
  scope?: SmsKeywordRuleScope;
}

export interface SmsKeywordRuleIdRequest {
  id: string;
}

export interface CreateSmsKeywordRuleRequest {
  operation: SmsKeywordOperation;
  country?: string | null;
  language?: string | null;
  number?: string | null;
  keywords?: string[];
  reply?: string | null;
  confirmed_self_managed?: boolean;
}

/** An absent field is left as it is; `keywords: []` drops the workspace's additions. */
export interface UpdateSmsKeywordRuleRequest {
  id: string;
  keywords?: string[];
  reply?: string | null;
  confirmed_self_managed?: boolean;
}
