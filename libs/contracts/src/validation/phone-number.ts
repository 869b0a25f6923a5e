import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** What people put in phone numbers that is not a digit: stripped before parsing. */
const PHONE_PUNCTUATION = /[\s().\-/]/g;

/**
 * A phone number in E.164 (`+` and 4 to 15 digits), or undefined when it cannot be one. The
 * country code is required (a leading `+` may be left out); spaces, dots, dashes, slashes and
 * parentheses are ignored.
 */
export function phoneNumber(value: string): string | undefined {
  const parsed = parsedPhoneNumber(value);
  const e164 = parsed?.number;
  return e164 && /^\+\d{4,15}$/.test(e164) ? e164 : undefined;
}

/**
 * `phoneNumber`, and only when its length is possible for its country code: the recipient of a
 * send, which would otherwise be accepted and fail at the carrier (`+12345`), or go to another
 * country when the country code was left out (`4155550100` reads as Swiss).
 */
export function routablePhoneNumber(value: string): string | undefined {
  const parsed = parsedPhoneNumber(value);
  return parsed?.isPossible() ? phoneNumber(parsed.number) : undefined;
}

function parsedPhoneNumber(value: string) {
  const stripped = value.trim().replace(PHONE_PUNCTUATION, '');
  if (!/^\+?\d+$/.test(stripped)) return undefined;
  return parsePhoneNumberFromString(stripped.startsWith('+') ? stripped : `+${stripped}`);
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
