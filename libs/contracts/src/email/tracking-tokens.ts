import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a token names: an open of, a click in, or an unsubscribe from one recipient's copy. */
export type TrackingClaim =
  | { kind: 'open'; messageId: string; recipientId: string }
  | { kind: 'click'; messageId: string; recipientId: string; url: string; linkName: string | null }
  | { kind: 'unsubscribe'; messageId: string; recipientId: string };

const KIND_CODES = { open: 'o', click: 'c', unsubscribe: 'u' } as const;
const KINDS = { o: 'open', c: 'click', u: 'unsubscribe' } as const;

/** 128 bits of HMAC-SHA256: forging one is as hard as guessing a 128-bit key. */
const MAC_BYTES = 16;
const MAC_CHARS = 22;
/** A token longer than this was not made here (the router takes up to 8,000 characters). */
const MAX_TOKEN_CHARS = 7_000;

/**
 * The signed tokens of tracking and unsubscribe links: `<base64url payload>.<base64url MAC>`,
 * the payload a JSON array of the claim, the MAC a truncated HMAC-SHA256 under a key derived
 * from ENCRYPTION_KEY for this use only (as verify derives its passcode keys). A click's
 * destination is inside the signed payload, so a link can only ever lead where the message
 * pointed: no open redirect, and no read to answer it. Tokens do not expire: mail is read years
 * later, and the message's own deletion is what retires its links.
 */
export class TrackingTokens {
  private readonly key: Buffer;

  constructor(encryptionKey: string) {
    this.key = createHmac('sha256', encryptionKey)
      .update('switchboard email tracking token')
      .digest();
  }

  sign(claim: TrackingClaim): string {
    const fields: unknown[] = [KIND_CODES[claim.kind], claim.messageId, claim.recipientId];
    if (claim.kind === 'click') {
      fields.push(claim.url);
      if (claim.linkName !== null) fields.push(claim.linkName);
    }
    const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The claim of a token this key signed; undefined for anything else (altered, cut, made up). */
  verify(token: string): TrackingClaim | undefined {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return undefined;
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length - dot - 1 !== MAC_CHARS) return undefined;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    // Base64url decoding is lenient: the MAC must also re-encode to exactly what was given.
    if (given.length !== MAC_BYTES || given.toString('base64url') !== token.slice(dot + 1))
      return undefined;
    if (!timingSafeEqual(given, this.mac(payload))) return undefined;
    return claimOf(payload);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }
}

function claimOf(payload: string): TrackingClaim | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string'))
    return undefined;
  const [code, messageId, recipientId, url, linkName] = fields;
  const kind = KINDS[code as keyof typeof KINDS] as TrackingClaim['kind'] | undefined;
  if (!kind || !messageId || !recipientId) return undefined;
  if (kind === 'click')
    return url && fields.length <= 5
      ? { kind, messageId, recipientId, url, linkName: linkName ?? null }
      : undefined;
  return fields.length === 3 ? { kind, messageId, recipientId } : undefined;
}
