import {
  CommonErrors,
  VERIFICATION_ATTEMPT_METADATA_KEY,
  VERIFICATION_METADATA_KEY,
} from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import type { PasscodeChannel } from './verification-rules';

/** What one channel needs to send a passcode. */
export interface PasscodeSend {
  verificationId: string;
  attemptId: string;
  address: string;
  code: string;
  language: string;
  /** Whole minutes the passcode stays valid, for the message text. */
  minutes: number;
}

/** The channel's answer: its message id and sender, or why it could not take the send. */
export type PasscodeSendResult =
  | { ok: true; messageId: string; from: string | null }
  | { ok: false; reason: PasscodeFailureReason; error: string };

/** The SDK's attempt failure reasons this service reports at send time. */
export type PasscodeFailureReason =
  'channel_unavailable' | 'channel_restricted' | 'carrier_rejected';

/**
 * A channel that carries passcodes: another service asked through its typed contract, never
 * through its tables. A refusal is an answer (the plan moves on), not an exception.
 */
export interface PasscodeCarrier {
  readonly channel: PasscodeChannel;
  send(context: RequestContext, send: PasscodeSend): Promise<PasscodeSendResult>;
}

export const PASSCODE_CARRIERS = Symbol('PASSCODE_CARRIERS');

export { VERIFICATION_METADATA_KEY } from '@switchboard/contracts';

/** The metadata of a passcode message: its verification and attempt, for its outcome events. */
export function passcodeMetadata(send: PasscodeSend): Record<string, string> {
  return {
    [VERIFICATION_METADATA_KEY]: send.verificationId,
    [VERIFICATION_ATTEMPT_METADATA_KEY]: send.attemptId,
  };
}

/**
 * Answers that say nothing about the send: it may have happened after the channel took it, or
 * another run is sending it under the same key right now (two recoveries, a slow channel).
 */
const UNKNOWN_OUTCOMES: readonly string[] = [
  CommonErrors.ServiceTimeout,
  CommonErrors.InternalError,
  CommonErrors.RequestInProgress,
];

/**
 * The channel service's error as a refusal, or thrown again when it says nothing about the send
 * (a time-out, an internal error): the attempt then stays `sending` for the recovery to ask
 * again, with the same Idempotency-Key (ADR 15).
 */
export function refusalOf(err: unknown): {
  ok: false;
  reason: 'channel_unavailable';
  error: string;
} {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || UNKNOWN_OUTCOMES.includes(code)) throw err;
  return { ok: false, reason: 'channel_unavailable', error: describe(err) };
}

/** The message of a refusal from another service, for `error` (never the passcode). */
function describe(err: unknown): string {
  const error = err as { message?: string; details?: Array<{ message: string }> };
  const detail = error.details?.map((item) => item.message).join('; ');
  return detail ? `${error.message ?? 'refused'}: ${detail}` : (error.message ?? 'refused');
}
