import type { SmsKeywordOperation, SmsKeywordRule } from '@switchboard/contracts';
import type { SystemKeywordRule } from './system-keyword-rules';
import { SYSTEM_KEYWORD_RULES, SYSTEM_RULES_UPDATED_AT } from './system-keyword-rules';

/** A workspace rule as stored in `sms_whatsapp.sms_keyword_rules`. */
export interface KeywordRuleRow {
  id: string;
  workspace_id: string;
  operation: SmsKeywordOperation;
  country: string | null;
  language: string | null;
  number: string | null;
  keywords: string[];
  reply: string | null;
  reply_disabled_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A default or a workspace rule with what it inherits resolved: what precedence and replies use. */
export interface KeywordRuleView {
  id: string;
  scope: 'system' | 'workspace';
  operation: SmsKeywordOperation;
  country: string | null;
  language: string | null;
  number: string | null;
  keywords: string[];
  effectiveKeywords: string[];
  reply: string | null;
  replySuffix: string | null;
  replyDisabledAt: string | null;
  /** What a workspace rule without a reply of its own (and not self-managed) sends: the default's. */
  inheritedReply: string | null;
  phraseKeywords: readonly string[];
  createdAt: string;
  updatedAt: string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The default a workspace rule of this operation, country and language stands in front of. */
export function defaultFor(
  operation: string,
  country: string | null,
  language: string | null,
): SystemKeywordRule | undefined {
  if (country === null) return undefined;
  return SYSTEM_KEYWORD_RULES.find(
    (rule) =>
      rule.operation === operation && rule.country === country && rule.language === language,
  );
}

export function systemView(rule: SystemKeywordRule): KeywordRuleView {
  return {
    id: rule.id,
    scope: 'system',
    operation: rule.operation,
    country: rule.country,
    language: rule.language,
    number: null,
    keywords: [...rule.keywords],
    effectiveKeywords: [...rule.keywords],
    reply: rule.reply,
    replySuffix: rule.replySuffix,
    replyDisabledAt: null,
    inheritedReply: null,
    phraseKeywords: rule.phraseKeywords ?? [],
    createdAt: SYSTEM_RULES_UPDATED_AT,
    updatedAt: SYSTEM_RULES_UPDATED_AT,
  };
}

export function workspaceView(row: KeywordRuleRow): KeywordRuleView {
  const base = defaultFor(row.operation, row.country, row.language);
  const inherited = base ? [...base.keywords] : [];
  return {
    id: row.id,
    scope: 'workspace',
    operation: row.operation,
    country: row.country,
    language: row.language,
    number: row.number,
    keywords: [...row.keywords],
    effectiveKeywords: [...inherited, ...row.keywords.filter((word) => !inherited.includes(word))],
    reply: row.reply,
    replySuffix: base?.replySuffix ?? null,
    replyDisabledAt: row.reply_disabled_at === null ? null : iso(row.reply_disabled_at),
    inheritedReply: base?.reply ?? null,
    phraseKeywords: base?.phraseKeywords ?? [],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const ALWAYS_MANDATORY: ReadonlySet<string> = new Set(['stop', 'start', 'help']);
const COUNTRIES_SHIPPING_INFO: ReadonlySet<string> = new Set(
  SYSTEM_KEYWORD_RULES.filter((rule) => rule.operation === 'info').map((rule) => rule.country),
);

/**
 * Whether a rule's operation is fixed (the SDK's `mandatory`): `stop`, `start` and `help` do what
 * they do whichever rule matched, and `info` only in a country whose defaults ship an `info` rule.
 * None does today (INFO is one of each country's `help` keywords), so a workspace's own `info`
 * rule is not mandatory.
 */
export function isMandatory(operation: string, country: string | null): boolean {
  if (ALWAYS_MANDATORY.has(operation)) return true;
  return operation === 'info' && country !== null && COUNTRIES_SHIPPING_INFO.has(country);
}

export function toKeywordRuleDto(view: KeywordRuleView): SmsKeywordRule {
  return {
    id: view.id,
    scope: view.scope,
    operation: view.operation,
    country: view.country,
    language: view.language,
    number: view.number,
    keywords: view.keywords,
    effective_keywords: view.effectiveKeywords,
    reply: view.reply,
    reply_suffix: view.replySuffix,
    reply_disabled_at: view.replyDisabledAt,
    mandatory: isMandatory(view.operation, view.country),
    created_at: view.createdAt,
    updated_at: view.updatedAt,
  };
}

/**
 * The text a matched rule sends back, or null: its reply (the default's when it has none of its
 * own and was not switched off) followed by the carrier-mandated suffix. `confirm` never replies.
 */
export function replyTextOf(view: KeywordRuleView): string | null {
  if (view.operation === 'confirm' || view.replyDisabledAt !== null) return null;
  const reply = view.reply ?? view.inheritedReply;
  if (reply === null) return null;
  return view.replySuffix ? `${reply} ${view.replySuffix}` : reply;
}
