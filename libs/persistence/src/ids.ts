import { createHash, randomFillSync } from 'node:crypto';

/** Lowercase Crockford base32, as the API's identifiers use. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_CHARS = 16;
/** Random bytes drawn in bulk: one system call per 256 ids (a send makes several). */
const pool = Buffer.alloc(RANDOM_CHARS * 256);
let offset = pool.length;

/**
 * A prefixed, time-ordered identifier: `<prefix>_` + 26 characters (48-bit millisecond time,
 * 80 random bits), so ids sort by creation time and index well.
 */
export function newId(prefix: string, now = Date.now()): string {
  if (offset + RANDOM_CHARS > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += ALPHABET[pool[offset + i] % 32];
  offset += RANDOM_CHARS;
  return `${prefix}_${timePart(now)}${random}`;
}

/**
 * The id `newId` makes at `now`, its 80 bits taken from a SHA-256 of `key` instead of drawn: the
 * same key and time give the same id, so a write offered twice (a retry after a time-out) names
 * one row and its second insert conflicts.
 */
export function derivedId(prefix: string, now: number, key: string): string {
  const digest = createHash('sha256').update(key).digest();
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += ALPHABET[digest[i] % 32];
  return `${prefix}_${timePart(now)}${random}`;
}

/** 48-bit millisecond time as 10 base32 characters, most significant first. */
function timePart(now: number): string {
  let time = '';
  let value = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[value % 32] + time;
    value = Math.floor(value / 32);
  }
  return time;
}
