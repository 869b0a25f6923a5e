import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Whether `header` (`X-Hub-Signature-256`) is `sha256=` + the hex HMAC-SHA256 of `body` keyed
 * with the app secret. The digests are compared in constant time, as bytes of equal length; a
 * header of another shape is refused before any comparison (its length says nothing secret).
 */
export function signatureOf(
  secret: string,
  body: Buffer,
  header: string | undefined,
): 'missing' | 'invalid' | 'valid' {
  if (header === undefined || header === '') return 'missing';
  const given = SIGNATURE.exec(header.trim());
  if (!given) return 'invalid';
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given[1], 'hex')) ? 'valid' : 'invalid';
}

/** `sha256=<hex>` of `body` under `secret`: what Meta sends (and the tests and bench sign with). */
export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text when it is a UTF-8 JSON object (Meta's payloads always are), else undefined.
 * Valid JSON holds no raw NUL, so the text is storable as is.
 */
export function payloadText(body: Buffer): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    return undefined;
  }
  // Cheap first: an object's text starts with `{` (after blanks); only then is it parsed.
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? text : undefined;
  } catch {
    return undefined;
  }
}
