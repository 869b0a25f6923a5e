import type { ErrorDetail } from '@switchboard/contracts';
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/metadata.min.json';

/** Grouping people write into numbers: ignored once the country is known. */
const GROUPING = /[\s().\-/]/g;
const SHORT_CODE = /^\d{3,8}$/;

/** An ISO 3166-1 alpha-2 code libphonenumber knows, uppercased; undefined otherwise. */
export function countryOf(value: string): CountryCode | undefined {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code) ? code : undefined;
}

/** The digits after the `+` of a dial code (`US` -> `1`). */
export function dialCodeOf(country: CountryCode): string {
  return getCountryCallingCode(country);
}

/**
 * A number the operator stocks: E.164 and its country. The country is the one libphonenumber
 * places the number in, or else the main country of its dial code (a number of a range the
 * metadata does not list yet, such as the UK's +44 7700 900 drama range, is still British).
 */
export function stockableNumber(
  value: string,
): { number: string; country_code: string } | undefined {
  const trimmed = value.trim();
  if (!/^\+\d+$/.test(trimmed)) return undefined;
  const parsed = parsePhoneNumberFromString(trimmed);
  if (!parsed?.isPossible() || parsed.number !== trimmed) return undefined;
  const byCode = (metadata.country_calling_codes as Record<string, string[]>)[
    parsed.countryCallingCode
  ];
  const country = parsed.country ?? byCode?.[0];
  if (!country || country === '001') return undefined;
  return { number: parsed.number, country_code: country };
}

export function isShortCode(value: string): boolean {
  return SHORT_CODE.test(value);
}

/**
 * The stored numbers a spelling of one number can mean (the SDK's `number` filter): `+12025550188`,
 * `12025550188`, `0012025550188` and `+1 202 555 0188` all mean one number. Grouping is allowed
 * once a `+` or `00` marks the country code, or when `country` names it; a grouped spelling
 * with neither is refused. Bare digits are read as international, with `country` also as a
 * national number of that country, and, three to eight of them, as a short code. Answers the
 * candidates, or a problem.
 */
export function numberCandidates(
  value: string,
  country: CountryCode | undefined,
  param = 'number',
): string[] | ErrorDetail {
  const trimmed = value.trim();
  const marked = trimmed.startsWith('+') || trimmed.startsWith('00');
  const grouped = GROUPING.test(trimmed);
  GROUPING.lastIndex = 0;
  if (grouped && !marked && !country)
    return {
      param,
      message: 'a grouped number needs a leading + or 00, or country_code to name its country',
    };
  const compact = trimmed.replace(GROUPING, '');
  if (!/^(\+|00)?\d{3,15}$/.test(compact))
    return {
      param,
      message: 'must be a phone number (digits, with its country code) or a short code',
    };
  if (marked) {
    const international = `+${compact.replace(/^(\+|00)/, '')}`;
    return [international];
  }
  const candidates = new Set<string>([`+${compact}`]);
  if (country) {
    const national = parsePhoneNumberFromString(compact, country);
    if (national?.number) candidates.add(national.number);
  }
  // A short code is matched on its bare digits; `country_code` picks among countries.
  if (isShortCode(compact)) candidates.add(compact);
  return [...candidates];
}

/** The whole number a `from`/`to` filter names, read as international (`00` or `+` optional). */
export function internationalNumber(value: string): string | undefined {
  const compact = value.trim().replace(GROUPING, '');
  if (!/^(\+|00)?\d{4,15}$/.test(compact)) return undefined;
  return `+${compact.replace(/^(\+|00)/, '')}`;
}
