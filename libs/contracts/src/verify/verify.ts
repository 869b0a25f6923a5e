import type {
  Verification,
  VerificationCheckResult,
  VerifyVerificationsCheckParams,
  VerifyVerificationsCreateParams,
  VerifyVerificationsNextChannelParams,
} from '@messagebird/sdk';

export type {
  Verification,
  VerificationCheckResult,
  VerifyVerificationsCheckParams,
  VerifyVerificationsCreateParams,
  VerifyVerificationsNextChannelParams,
};

/** Transport subjects of verifications, answered by the verify-lookup-preferences service. */
export const VerifySubjects = {
  Create: 'verify_lookup_preferences.verification.create',
  Check: 'verify_lookup_preferences.verification.check',
  NextChannel: 'verify_lookup_preferences.verification.next_channel',
} as const;

/**
 * The metadata key of a passcode message (the verify service sets it on the SMS, email or
 * WhatsApp message it asks for): its delivery events find the verification's attempt again, and
 * the email service never answers such a message's stored content, which holds the passcode.
 */
export const VERIFICATION_METADATA_KEY = 'switchboard_verification_id';

/**
 * Beside it, the attempt's id: an outcome that comes before the channel's acceptance is recorded
 * (a time-out, a race with the group commit) still finds its attempt.
 */
export const VERIFICATION_ATTEMPT_METADATA_KEY = 'switchboard_verification_attempt_id';

/** The channels the SDK names; `telegram` and `voice` are accepted in a plan and never enabled here. */
export const VERIFICATION_CHANNELS = ['email', 'sms', 'whatsapp', 'telegram', 'voice'] as const;
export type VerificationChannelName = (typeof VERIFICATION_CHANNELS)[number];

/** The built-in translations a passcode can be sent in (the SDK's `options.language`). */
export const VERIFICATION_LANGUAGES = [
  'en',
  'ar',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'fi',
  'fr',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'mk',
  'mn',
  'ms',
  'nb-NO',
  'nl',
  'no',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
  'zh-TW',
] as const;

export const VERIFY_LIMITS = {
  emailLength: 320,
  phoneNumberLength: 32,
  minCodeLength: 4,
  maxCodeLength: 10,
  /** A submitted code: digits only, never longer than the longest code we make, plus slack. */
  maxSubmittedCodeLength: 12,
  metadataBytes: 4096,
} as const;
