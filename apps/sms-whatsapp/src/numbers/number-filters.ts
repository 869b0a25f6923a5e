import type { ErrorDetail } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { CountryCode } from 'libphonenumber-js';
import { countryOf, dialCodeOf, numberCandidates } from './number-spelling';
import { SqlFilter } from '../database/sql-filter';

/** Longest prefix: national digits after a named country's dial code, or from the start. */
export const PREFIX_LIMITS = { withCountry: 10, withoutCountry: 15 } as const;

interface Filters {
  number?: string;
  country_code?: string;
  number_type?: string;
  prefix?: string;
  capabilities?: string[];
}

/**
 * The SQL of the numbers filters over the stocked number `n` (and the held number column
 * `numberColumn`), after `first` (the scope). Every problem is collected into one 422.
 * Answers the filter and what its cursors are bound to.
 */
export function numberFilters(
  first: string,
  params: unknown[],
  input: Filters,
): { filter: SqlFilter; bound: Record<string, unknown> } {
  const problems: ErrorDetail[] = [];
  let country: CountryCode | undefined;
  if (input.country_code !== undefined) {
    country = countryOf(input.country_code);
    if (!country)
      problems.push({
        param: 'country_code',
        message: 'must be an ISO 3166-1 alpha-2 country code',
      });
  }
  const filter = new SqlFilter(first, params);
  if (input.number !== undefined) {
    const candidates = numberCandidates(input.number, country);
    if (Array.isArray(candidates)) filter.add('n.number = ANY($?::text[])', candidates);
    else problems.push(candidates);
  }
  if (input.prefix !== undefined) {
    const limit = country ? PREFIX_LIMITS.withCountry : PREFIX_LIMITS.withoutCountry;
    if (!/^\d+$/.test(input.prefix) || input.prefix.length > limit)
      problems.push({
        param: 'prefix',
        message: `must be 1 to ${limit} digits${country ? ' (national digits, after the dial code)' : ''}`,
      });
    else if (country) filter.add('n.number LIKE $?', `+${dialCodeOf(country)}${input.prefix}%`);
    else filter.add("ltrim(n.number, '+') LIKE $?", `${input.prefix}%`);
  }
  if (problems.length) throw AppError.validation(problems);
  if (country) filter.add('n.country_code = $?', country);
  if (input.number_type !== undefined) filter.add('n.number_type = $?', input.number_type);
  const capabilities = [...new Set(input.capabilities ?? [])].sort();
  if (capabilities.length) filter.add('n.capabilities @> $?::text[]', capabilities);
  return {
    filter,
    bound: {
      number: input.number ?? null,
      country_code: country ?? null,
      number_type: input.number_type ?? null,
      prefix: input.prefix ?? null,
      capabilities,
    },
  };
}
