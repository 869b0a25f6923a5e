import type { SmsError } from '@switchboard/contracts';
import type { CarrierSubmitError } from '../carriers/sms-carrier';

/** A carrier that stays unreachable this long after the send fails the message. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;
const RETRY_BASE_MS = 5_000;
const RETRY_CAP_MS = 10 * 60_000;

/** What a refused submit leads to: another try later, or the message failed with its error. */
export type SubmitFailure = { retryInMs: number } | { error: SmsError };

/**
 * A temporary refusal (a bind down, a throttle the carrier layer gave up on) is tried again with
 * back-off from 5 s doubling to 10 min, until the message is a day old: then it fails as
 * `provider_unavailable`. A permanent refusal fails it at once with the carrier's code and its
 * `command_status` as `carrier_error_code`.
 */
export function submitFailure(
  error: CarrierSubmitError,
  createdAt: Date,
  at: Date,
  attempts: number,
): SubmitFailure {
  const old = at.getTime() - createdAt.getTime() >= GIVE_UP_AFTER_MS;
  if (error.temporary && !old)
    return { retryInMs: Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(attempts - 1, 20)) };
  return {
    error: {
      code: error.temporary ? 'provider_unavailable' : error.code,
      description: error.temporary
        ? `no carrier took the message within 24 hours (last: ${error.message})`
        : error.message,
      carrier_error_code:
        error.commandStatus === undefined
          ? null
          : `0x${error.commandStatus.toString(16).padStart(8, '0')}`,
      occurred_at: at.toISOString(),
    },
  };
}
