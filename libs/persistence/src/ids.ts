import { randomBytes } from 'node:crypto';

/** Lowercase Crockford base32, as the API's identifiers use. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A prefixed, time-ordered identifier: `<prefix>_` + 26 characters (48-bit millisecond time,
 * 80 random bits), so ids sort by creation time and index well.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let value = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[value % 32] + time;
    value = Math.floor(value / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i++) random += ALPHABET[bytes[i] % 32];
  return `${prefix}_${time}${random}`;
}
