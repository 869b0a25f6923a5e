import { createHash } from 'node:crypto';

/** Attempts before a temporary failure (Meta away, a checksum that did not match) becomes final. */
export const MEDIA_FETCH_ATTEMPTS = 8;

/** Back-off before the next attempt: 5 s doubling, at most 10 minutes (about 20 minutes in all). */
export function mediaRetryInMs(attempts: number): number {
  return Math.min(10 * 60_000, 5_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Whether `bytes` are what Meta declared. Meta spells a SHA-256 in hex on `GET /{media_id}` and
 * in base64 in some webhook payloads; either spelling of the digest matches. No declaration
 * (Meta omits it at times) cannot be checked, and passes.
 */
export function matchesDeclaredSha256(
  bytes: Buffer,
  declared: Array<string | null | undefined>,
): boolean {
  const digest = createHash('sha256').update(bytes).digest();
  const hex = digest.toString('hex');
  const base64 = digest.toString('base64');
  return declared.every((value) => {
    const given = value?.trim();
    return !given || given.toLowerCase() === hex || given === base64;
  });
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
