import { phoneNumber } from '@switchboard/contracts';

/**
 * A sender as the API takes it, in its stored form: a phone number in E.164, a short code (3 to 8
 * digits) as its digits, an alphanumeric sender ID (up to 11 letters, digits and spaces, at least
 * one letter) as given. Undefined when it can be none of these.
 */
export function senderForm(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^\d{3,8}$/.test(trimmed)) return trimmed;
  if (/^[A-Za-z0-9 ]{1,11}$/.test(trimmed) && /[A-Za-z]/.test(trimmed)) return trimmed;
  return phoneNumber(trimmed);
}
