import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** What people put in phone numbers that is not a digit: stripped before parsing. */
const PHONE_PUNCTUATION = /[\s().\-/]/g;

/**
 * A phone number in E.164 (`+` and 4 to 15 digits), or undefined when it cannot be one. The
 * country code is required (a leading `+` may be left out); spaces, dots, dashes, slashes and
 * parentheses are ignored.
 */
export function phoneNumber(value: string): string | undefined {
  const stripped = value.trim().replace(PHONE_PUNCTUATION, '');
  if (!/^\+?\d+$/.test(stripped)) return undefined;
  const parsed = parsePhoneNumberFromString(stripped.startsWith('+') ? stripped : `+${stripped}`);
  const e164 = parsed?.number;
  return e164 && /^\+\d{4,15}$/.test(e164) ? e164 : undefined;
}
