import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of verifications. E13000 is the SDK's own code for "no verification in progress". */
export const VerifyErrorCatalog = {
  E01113: {
    status: 422,
    type: 'validation_error',
    name: 'NoNextChannel',
    message: "The verification's channel plan has no further channel.",
    description:
      "Every channel of the verification's plan has been tried. Earlier passcodes stay valid until `expires_at`; to send again on the current channel, create the verification again for the same `to` (after the resend cooldown).",
  },
  E01114: {
    status: 422,
    type: 'validation_error',
    name: 'NoAvailableChannel',
    message: 'No remaining channel of the plan could send a passcode.',
    description:
      'Each channel left in the plan refused the send: no sender for SMS (a number with the sms capability, or `VERIFY_SMS_FROM`), no approved `authentication` WhatsApp template, or the recipient opted out of the channel. `details` names each channel and why.',
  },
  E01115: {
    status: 422,
    type: 'validation_error',
    name: 'NoUsableChannel',
    message: 'options.channels leaves no channel this recipient can be verified over.',
    description:
      'An email recipient is verified over `email`; a phone recipient over `sms` and `whatsapp`. `options.channels` narrows and reorders those; a list naming none of them (only `telegram` and `voice`, which are not enabled, or channels this deployment does not know, which are ignored) leaves nothing to send on.',
  },
  E07010: {
    status: 429,
    type: 'rate_limit_error',
    name: 'VerificationSendLimit',
    message: 'Too many passcodes were sent to this recipient in the last hour.',
    description:
      "Each send of a passcode (a new verification, or a resend after the cooldown) spends one of the recipient's hourly send slots (`VERIFY_SENDS_PER_HOUR`, 5 by default, a rolling hour). `Retry-After` gives the seconds until the earliest slot frees (an hour after it was spent). `next-channel` does not spend slots.",
  },
  E13000: {
    status: 404,
    type: 'not_found_error',
    name: 'VerificationNotFound',
    message: 'No verification is in progress for this recipient.',
    description:
      'None was created for exactly this `to` (a verification created with an email and a phone number is found only by both), or the latest one is already final: verified, expired, failed or out of attempts. A 404 is not evidence that the recipient failed to verify; keep your own record of an earlier `success: true`.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(VerifyErrors.VerificationNotFound)`. */
export const VerifyErrors = codesOf(VerifyErrorCatalog);
