import { keywordKey, saysAtEdge } from './keyword-text';
import type { KeywordRuleView } from './keyword-rule-view';
import { systemView } from './keyword-rule-view';
import { SYSTEM_KEYWORD_RULES } from './system-keyword-rules';

const SYSTEM_VIEWS = SYSTEM_KEYWORD_RULES.map(systemView);
const OPERATION_ORDER = ['stop', 'start', 'help', 'info', 'confirm', 'custom'];

/** Within one level: by operation, then language, then age (what a reader scans for). */
function byOperation(a: KeywordRuleView, b: KeywordRuleView): number {
  return (
    OPERATION_ORDER.indexOf(a.operation) - OPERATION_ORDER.indexOf(b.operation) ||
    (a.language ?? '').localeCompare(b.language ?? '') ||
    a.createdAt.localeCompare(b.createdAt) ||
    a.id.localeCompare(b.id)
  );
}

/** A country's level: the workspace's rules for it, then the defaults. */
function countryLevel(country: string, workspaceRules: KeywordRuleView[]): KeywordRuleView[] {
  return [
    ...workspaceRules.filter((r) => r.number === null && r.country === country).sort(byOperation),
    ...SYSTEM_VIEWS.filter((r) => r.country === country).sort(byOperation),
  ];
}

/** Where an inbound message arrives and who sent it, for picking the rules that apply. */
export interface MessageSetting {
  /** The workspace's number it was sent to. */
  number: string;
  /** The country of that number, when known. */
  arrivalCountry?: string;
  /** The country of the person's number, when known. */
  senderCountry?: string;
}

/**
 * The rules that apply to a message, most specific first: rules confined to the number, the
 * country it arrives in (the workspace's before the defaults), the sender's country (likewise),
 * then worldwide `custom` rules. The first whose keywords match is the one that runs.
 */
export function rulesInOrder(
  setting: MessageSetting,
  workspaceRules: KeywordRuleView[],
): KeywordRuleView[] {
  // A short code's digits may be held in several countries: its rules name theirs.
  const ordered = workspaceRules
    .filter(
      (r) =>
        r.number === setting.number &&
        (!setting.arrivalCountry || r.country === null || r.country === setting.arrivalCountry),
    )
    .sort(byOperation);
  if (setting.arrivalCountry) ordered.push(...countryLevel(setting.arrivalCountry, workspaceRules));
  if (setting.senderCountry && setting.senderCountry !== setting.arrivalCountry)
    ordered.push(...countryLevel(setting.senderCountry, workspaceRules));
  ordered.push(
    ...workspaceRules.filter((r) => r.number === null && r.country === null).sort(byOperation),
  );
  return ordered;
}

/**
 * Every rule of the workspace and every default, most specific first: number rules, then each
 * country (alphabetically, the workspace's before the defaults), then worldwide rules.
 */
export function allRulesInOrder(workspaceRules: KeywordRuleView[]): KeywordRuleView[] {
  const countries = new Set<string>(SYSTEM_VIEWS.map((r) => r.country as string));
  for (const rule of workspaceRules) if (rule.country) countries.add(rule.country);
  return [
    ...workspaceRules
      .filter((r) => r.number !== null)
      .sort((a, b) => (a.number as string).localeCompare(b.number as string) || byOperation(a, b)),
    ...[...countries].sort().flatMap((country) => countryLevel(country, workspaceRules)),
    ...workspaceRules.filter((r) => r.number === null && r.country === null).sort(byOperation),
  ];
}

export interface KeywordMatch {
  rule: KeywordRuleView;
  keyword: string;
}

/**
 * The rule an inbound text triggers: the first whose keywords are the whole message, else the
 * first opt-out rule whose opt-out words lead or close a short message (`saysAtEdge`).
 */
export function matchKeyword(text: string, ordered: KeywordRuleView[]): KeywordMatch | undefined {
  const key = keywordKey(text);
  if (!key) return undefined;
  for (const rule of ordered)
    if (rule.effectiveKeywords.includes(key)) return { rule, keyword: key };
  for (const rule of ordered) {
    if (rule.operation !== 'stop') continue;
    const keyword = saysAtEdge(key, rule.phraseKeywords);
    if (keyword) return { rule, keyword };
  }
  return undefined;
}
