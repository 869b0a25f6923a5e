import { phoneNumber, SmsRulesErrors } from '@switchboard/contracts';
import type { CreateSmsKeywordRuleRequest, ErrorDetail } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import type { RuleScope } from './keyword-conflicts';
import { COUNTRY_OPERATIONS } from './keyword-rule-input';
import type { KeywordRulesRepository } from './keyword-rules.repository';
import { COVERED_COUNTRIES, shippedLanguages } from './system-keyword-rules';

const invalid = (param: string, message: string) =>
  new AppError(SmsRulesErrors.SmsKeywordRuleInvalid, { param, message });

/**
 * What a new rule applies to: its country (given, or derived from an E.164 `number` the workspace
 * holds), its language (only where the country ships several), its number. Shape problems are
 * collected in `problems` (E01001); a rule that cannot apply as asked throws E01030.
 */
export async function resolveRuleScope(
  runner: SqlRunner,
  repository: KeywordRulesRepository,
  workspaceId: string,
  input: CreateSmsKeywordRuleRequest,
  problems: ErrorDetail[],
): Promise<RuleScope | undefined> {
  const before = problems.length;
  let country: string | null = null;
  if (input.country !== undefined && input.country !== null) {
    if (typeof input.country === 'string' && /^[A-Za-z]{2}$/.test(input.country))
      country = input.country.toUpperCase();
    else
      problems.push({
        param: 'country',
        message: 'must be an ISO 3166-1 alpha-2 code, such as US',
      });
  }
  let number: string | null = null;
  if (input.number !== undefined && input.number !== null) {
    const raw = typeof input.number === 'string' ? input.number.trim() : '';
    const shortCode = /^\d{3,8}$/.test(raw);
    number = shortCode ? raw : (phoneNumber(raw) ?? null);
    if (!number)
      problems.push({
        param: 'number',
        message: 'must be one of your numbers in E.164, or a short code',
      });
    else if (shortCode && !country)
      problems.push({
        param: 'country',
        message: 'is required with a short code, which carries no country',
      });
    if (number && problems.length === before) {
      // An E.164 number has one country, told apart below; a short code's names its holding.
      const held = await repository.heldNumber(
        workspaceId,
        number,
        shortCode ? (country ?? null) : null,
        runner,
      );
      if (!held || !held.capabilities.includes('sms'))
        throw invalid('number', `${number} is not a number of this workspace able to receive SMS`);
      if (country && held.country_code !== country)
        throw invalid('country', `${number} is a ${held.country_code} number, not ${country}`);
      country = held.country_code;
    }
  }
  const operation = input.operation;
  // Only a custom rule may apply worldwide (the SDK's `country`): every other operation acts
  // on one country's keywords.
  const worldwideAllowed = operation === 'custom';
  if (!worldwideAllowed && !country && problems.length === before)
    problems.push({
      param: 'country',
      message: `is required for a ${operation} rule (or a number in E.164 to derive it from)`,
    });
  const languages = country ? shippedLanguages(country) : [];
  let language: string | null = null;
  if (input.language !== undefined && input.language !== null) {
    if (languages.length < 2)
      problems.push({
        param: 'language',
        message: `is accepted only where the defaults come in several languages (such as CA: en, fr)${country ? `; ${country} has one set` : ''}`,
      });
    else if (!languages.includes(String(input.language).toLowerCase()))
      throw invalid(
        'language',
        `${country} ships ${languages.join(' and ')}, not ${String(input.language)}`,
      );
    else language = String(input.language).toLowerCase();
  } else if (COUNTRY_OPERATIONS.has(operation) && languages.length > 1) {
    problems.push({
      param: 'language',
      message: `is required in ${country}, which ships ${languages.join(' and ')}: name the one this rule replaces`,
    });
  }
  if (problems.length > before) return undefined;
  if (!worldwideAllowed && !COVERED_COUNTRIES.has(country as string))
    throw invalid(
      'country',
      `${country} has no default keyword coverage: only custom rules work there (covered: ${[...COVERED_COUNTRIES].join(', ')})`,
    );
  return { operation, country, language, number };
}
