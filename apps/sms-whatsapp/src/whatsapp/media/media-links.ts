import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** A media link's token names the media and its expiry, signed: `<media id>.<expiry ms>.<tag>`. */
export type MediaLinkCheck =
  { valid: true; mediaId: string } | { valid: false; reason: 'forged' | 'expired' };

/**
 * Signs and checks the credential-free links inbound media is served from. The key is derived
 * (HKDF-SHA256) from the service's `ENCRYPTION_KEY`, which every instance shares and which is
 * always set (unlike `WHATSAPP_APP_SECRET`), under a label of its own: the link key is not the key
 * that seals secrets or signs cursors. Rotating `ENCRYPTION_KEY` invalidates links in flight.
 */
export class MediaLinks {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', secret, 'switchboard', 'whatsapp media links v1', 32),
    );
  }

  sign(mediaId: string, expiresAt: number): string {
    const body = `${mediaId}.${expiresAt}`;
    return `${body}.${this.tag(body)}`;
  }

  check(token: string): MediaLinkCheck {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^waf_[0-9a-z]+$/.test(parts[0]) || !/^\d{1,15}$/.test(parts[1]))
      return { valid: false, reason: 'forged' };
    const [mediaId, expiry, tag] = parts;
    const expected = Buffer.from(this.tag(`${mediaId}.${expiry}`));
    const given = Buffer.from(tag);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { valid: false, reason: 'forged' };
    if (Number(expiry) <= this.now()) return { valid: false, reason: 'expired' };
    return { valid: true, mediaId };
  }

  private tag(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
