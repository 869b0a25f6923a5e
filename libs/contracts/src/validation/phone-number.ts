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

/**
 * How an SMS sender is spelled wherever it is stored or compared: a number in E.164 (`+` kept
 * or added to a long run of digits), a short code or a sender ID exactly as given. The SMS
 * service stores its senders so, and the preference ledger stores SMS sender scopes so, or a
 * statement scoped to `31612340000` would never meet a send from `+31612340000`.
 */
export function senderSpelling(from: string): string {
  if (/^\+/.test(from) || /^\d{9,15}$/.test(from)) return phoneNumber(from) ?? from;
  return from;
}
