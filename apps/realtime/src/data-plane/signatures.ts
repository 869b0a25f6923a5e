import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The string a channel authorization signs (contract section 5): `connection_id:channel` for
 * `private-`, plus `:member_data` for `presence-`; for sign-in `connection_id::member::member_data`.
 */
export function signedString(
  connectionId: string,
  target: { channel: string; memberData?: string } | { signinMemberData: string },
): string {
  if ('signinMemberData' in target) return `${connectionId}::member::${target.signinMemberData}`;
  return target.memberData === undefined
    ? `${connectionId}:${target.channel}`
    : `${connectionId}:${target.channel}:${target.memberData}`;
}

/** `<key>:<hex HMAC-SHA256(secret, signed)>`, as the app's backend computes it. */
export function authFor(key: string, secret: string, signed: string): string {
  return `${key}:${createHmac('sha256', secret).update(signed).digest('hex')}`;
}

/** Whether `auth` is the signature of `signed` by this key; compared in constant time. */
export function authMatches(auth: unknown, key: string, secret: string, signed: string): boolean {
  if (typeof auth !== 'string') return false;
  const expected = Buffer.from(authFor(key, secret, signed));
  const given = Buffer.from(auth);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
