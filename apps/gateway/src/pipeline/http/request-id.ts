import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_LENGTH = 26;
/** Random bytes drawn in bulk: one system call per ~150 ids instead of one per request. */
const pool = Buffer.alloc(ID_LENGTH * 156);
let offset = pool.length;

/** `req_` + 26 random characters; echoed in X-Request-Id and every error envelope. */
export function newRequestId(): string {
  if (offset + ID_LENGTH > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let id = 'req_';
  for (let i = 0; i < ID_LENGTH; i++) id += ALPHABET[pool[offset + i] % 32];
  offset += ID_LENGTH;
  return id;
}
