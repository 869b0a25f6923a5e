import type { SmsKeywordOperation } from '@switchboard/contracts';
import { defaultFor } from './keyword-rule-view';
import type { KeywordRuleView } from './keyword-rule-view';
import { SYSTEM_KEYWORD_RULES } from './system-keyword-rules';

/** Where a rule applies: what decides which keywords it may bind. */
export interface RuleScope {
  id?: string;
  operation: SmsKeywordOperation;
  country: string | null;
  language: string | null;
  number: string | null;
}

/** A keyword a rule cannot take, and why. */
export interface KeywordConflict {
  keyword: string;
  message: string;
}

/**
 * The first keyword the rule cannot bind: one a default ships for another operation (or another
 * language) in the rule's country, or in any country for a worldwide rule (STOP is always an
 * opt-out, HELP always help); or one another workspace rule of the same country and number has.
 */
export function keywordConflict(
  rule: RuleScope,
  keywords: string[],
  workspaceRules: KeywordRuleView[],
): KeywordConflict | undefined {
  const own = defaultFor(rule.operation, rule.country, rule.language);
  for (const keyword of keywords) {
    const system = SYSTEM_KEYWORD_RULES.find(
      (candidate) =>
        candidate !== own &&
        (rule.country === null || candidate.country === rule.country) &&
        candidate.keywords.includes(keyword),
    );
    if (system)
      return {
        keyword,
        message: `${keyword} is a ${system.operation} keyword in ${system.country}${system.language ? ` (${system.language})` : ''} (${system.id}) and cannot be bound to another rule`,
      };
    const taken = workspaceRules.find(
      (candidate) =>
        candidate.id !== rule.id &&
        candidate.country === rule.country &&
        candidate.number === rule.number &&
        candidate.keywords.includes(keyword),
    );
    if (taken)
      return {
        keyword,
        message: `${keyword} is already a keyword of rule ${taken.id} (${taken.operation}) for the same ${rule.number ?? rule.country ?? 'worldwide scope'}`,
      };
  }
  return undefined;
}

/** The keywords the rule's own default already ships: dropped, a rule never restates them. */
export function withoutInherited(rule: RuleScope, keywords: string[]): string[] {
  const own = defaultFor(rule.operation, rule.country, rule.language);
  return own ? keywords.filter((keyword) => !own.keywords.includes(keyword)) : keywords;
}
