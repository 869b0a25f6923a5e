import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { VERIFY_LIMITS, VerifyErrors } from '@switchboard/contracts';
import type { ErrorDetail, VerifyVerificationsCreateParams } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const E164 = /^\+[1-9]\d{6,14}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Who a verification is for; `key` is how it is found again (both addresses when both given). */
export interface Recipient {
  email: string | null;
  phoneNumber: string | null;
  key: string;
}

/** The channels enabled here, per kind of address, in the order a plan tries them. */
const PHONE_CHANNELS = ['sms', 'whatsapp'] as const;
export type PasscodeChannel = 'sms' | 'whatsapp' | 'email';

/** `to` checked and normalised: an address given must be valid (422 for an invalid recipient). */
export function recipientOf(to: unknown): Recipient {
  const details: ErrorDetail[] = [];
  const value = (to ?? {}) as { email?: unknown; phone_number?: unknown };
  let email: string | null = null;
  let phoneNumber: string | null = null;
  if (value.email !== undefined) {
    const lowered = typeof value.email === 'string' ? value.email.trim().toLowerCase() : '';
    if (!EMAIL.test(lowered) || /[\u0000-\u001f\u007f]/.test(lowered))
      details.push({ param: 'to.email', message: 'must be an email address' });
    else email = lowered;
  }
  if (value.phone_number !== undefined) {
    const given = typeof value.phone_number === 'string' ? value.phone_number.trim() : '';
    if (!E164.test(given))
      details.push({
        param: 'to.phone_number',
        message: 'must be a phone number in E.164 format (+ and country code, 7 to 15 digits)',
      });
    else phoneNumber = given;
  }
  if (details.length === 0 && !email && !phoneNumber)
    details.push({ param: 'to', message: 'must have an email, a phone_number or both' });
  if (details.length > 0) throw AppError.validation(details);
  return { email, phoneNumber, key: `${email ?? ''}|${phoneNumber ?? ''}` };
}

/**
 * The plan: a phone number over SMS then WhatsApp, an email over email (after the phone
 * channels when both are given). `requested` reorders and narrows it; a channel it names that
 * is not enabled for the recipient (telegram, voice, email without an address) is ignored.
 */
export function planOf(recipient: Recipient, requested?: readonly string[]): PasscodeChannel[] {
  const enabled: PasscodeChannel[] = [
    ...(recipient.phoneNumber ? PHONE_CHANNELS : []),
    ...(recipient.email ? (['email'] as const) : []),
  ];
  if (!requested) return enabled;
  const plan = [...new Set(requested)].filter((channel): channel is PasscodeChannel =>
    (enabled as string[]).includes(channel),
  );
  if (plan.length === 0)
    throw new AppError(VerifyErrors.NoUsableChannel, {
      details: [
        {
          param: 'options.channels',
          message: `names none of the channels enabled for this recipient (${enabled.join(', ')})`,
        },
      ],
    });
  return plan;
}

/** Languages by the country of a phone number, where one of ours is spoken there. */
const COUNTRY_LANGUAGES: Record<string, string> = {
  NL: 'nl',
  BE: 'nl',
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  LU: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
  IT: 'it',
  PT: 'pt',
  BR: 'pt',
  PL: 'pl',
  CZ: 'cs',
  SK: 'sk',
  HU: 'hu',
  RO: 'ro',
  BG: 'bg',
  GR: 'el',
  DK: 'da',
  SE: 'sv',
  NO: 'no',
  FI: 'fi',
  RU: 'ru',
  UA: 'uk',
  TR: 'tr',
  IL: 'he',
  SA: 'ar',
  AE: 'ar',
  EG: 'ar',
  IN: 'hi',
  ID: 'id',
  MY: 'ms',
  TH: 'th',
  VN: 'vi',
  CN: 'zh',
  TW: 'zh-TW',
  JP: 'ja',
  KR: 'ko',
  HR: 'hr',
  SI: 'sl',
  RS: 'sr',
  MK: 'mk',
  LT: 'lt',
  LV: 'lv',
  MN: 'mn',
};

/** The translation a verification sends in: the one asked for, else the phone's country's, else en. */
export function languageOf(requested: string | undefined, phoneNumber: string | null): string {
  if (requested) return canonicalTag(requested);
  const country = phoneNumber ? parsePhoneNumberFromString(phoneNumber)?.country : undefined;
  return (country && COUNTRY_LANGUAGES[country]) || 'en';
}

/**
 * A requested tag as the translations are keyed (`pt-br` is `pt-BR`); one Intl cannot read is
 * kept as given, and falls back like any tag without a translation.
 */
function canonicalTag(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return tag;
  }
}

/** A random, unguessable seed for a passcode (node:crypto): what an attempt keeps. */
export function newPasscodeSeed(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The passcode of a seed: HMAC-SHA256 of the verification and the seed under the service's
 * derivation key, reduced to `length` digits (64 bits mod 10^length: the bias is below 10^-9).
 * Only the key and the seed together give it, so a crash before the channel took it can be
 * repaired by deriving it again, without the passcode ever being stored.
 */
export function derivePasscode(
  key: Buffer,
  verificationId: string,
  seed: string,
  length: number,
): string {
  const digest = createHmac('sha256', key).update(`${verificationId}:${seed}`).digest();
  return (digest.readBigUInt64BE(0) % 10n ** BigInt(length)).toString().padStart(length, '0');
}

/** The keyed hash a passcode is kept as: bound to its verification, useless without the key. */
export function passcodeHash(key: Buffer, verificationId: string, code: string): Buffer {
  return createHmac('sha256', key).update(`${verificationId}:${code}`).digest();
}

/**
 * Which of the kept hashes `code` is (its index), or -1: every hash is compared, each in
 * constant time, whichever matches.
 */
export function passcodeMatch(
  key: Buffer,
  verificationId: string,
  code: string,
  hashes: readonly Buffer[],
): number {
  const candidate = passcodeHash(key, verificationId, code);
  let matched = -1;
  hashes.forEach((hash, index) => {
    if (hash.length === candidate.length && timingSafeEqual(hash, candidate)) matched = index;
  });
  return matched;
}

/** The options of a create checked beyond their shape (the gateway checked types). */
export function codeLengthOf(
  options: VerifyVerificationsCreateParams['options'],
  fallback: number,
): number {
  const length = options?.code_length ?? fallback;
  if (
    !Number.isInteger(length) ||
    length < VERIFY_LIMITS.minCodeLength ||
    length > VERIFY_LIMITS.maxCodeLength
  )
    throw AppError.validation([
      {
        param: 'options.code_length',
        message: `must be a whole number from ${VERIFY_LIMITS.minCodeLength} to ${VERIFY_LIMITS.maxCodeLength}`,
      },
    ]);
  return length;
}

/** `metadata` as stored: an object of at most 4 KB serialised (null when absent). */
export function metadataOf(metadata: unknown): Record<string, unknown> | null {
  if (metadata === undefined || metadata === null) return null;
  if (
    typeof metadata !== 'object' ||
    Array.isArray(metadata) ||
    Buffer.byteLength(JSON.stringify(metadata)) > VERIFY_LIMITS.metadataBytes
  )
    throw AppError.validation([
      {
        param: 'metadata',
        message: `must be an object of at most ${VERIFY_LIMITS.metadataBytes} bytes serialized`,
      },
    ]);
  return metadata as Record<string, unknown>;
}
