import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let token = '';
  for (let i = 0; i < length; i++) token += ALPHABET[bytes[i] % 32];
  return token;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

export interface IssuedSecret {
  /** The whole secret, shown to its owner once. */
  secret: string;
  /** Public part used to find the stored row without comparing secrets in SQL. */
  lookup: string;
  hash: Buffer;
}

/**
 * Issues `<prefix><lookup><random><checksum>`: the lookup finds the row, the SHA-256 of the
 * whole secret is stored and compared in constant time, the checksum rejects typos cheaply.
 */
export function issueSecret(prefix: string): IssuedSecret {
  const lookup = randomToken(LOOKUP_LENGTH);
  const body = `${prefix}${lookup}${randomToken(SECRET_LENGTH)}`;
  const secret = `${body}${checksum(body)}`;
  return { secret, lookup, hash: hashSecret(secret) };
}

/** Splits a presented secret into its lookup part, or undefined when it cannot be one of ours. */
export function parseSecret(prefix: string, presented: string): { lookup: string } | undefined {
  if (!presented.startsWith(prefix)) return undefined;
  const rest = presented.slice(prefix.length);
  if (rest.length !== LOOKUP_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH) return undefined;
  const body = presented.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== presented.slice(-CHECKSUM_LENGTH)) return undefined;
  return { lookup: rest.slice(0, LOOKUP_LENGTH) };
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashSecret(presented);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}

/** Passwords are low-entropy, so they get a slow, salted hash: `scrypt$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${derived.toString('base64')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const derived = await scrypt(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(derived, expected);
}

/** API keys carry their region: `bk_{region}_{token}`, as the official SDK reads it. */
export function apiKeyPrefix(region: string): string {
  return `bk_${region}_`;
}

export function regionOfApiKey(presented: string): string | undefined {
  const match = /^bk_([a-z]{2}[0-9]+)_/.exec(presented);
  return match?.[1];
}
