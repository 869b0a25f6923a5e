import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `req_` + 26 random characters; echoed in X-Request-Id and every error envelope. */
export function newRequestId(): string {
  const bytes = randomBytes(26);
  let id = 'req_';
  for (let i = 0; i < 26; i++) id += ALPHABET[bytes[i] % 32];
  return id;
}
