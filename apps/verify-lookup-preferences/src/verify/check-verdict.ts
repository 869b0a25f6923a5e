import type { VerificationCheckResult } from '@switchboard/contracts';
import { toVerificationDto } from './verification.mapper';
import { passcodeMatch } from './verification-rules';
import type { VerificationRow } from './verifications.repository';

/** What a spent check decided: the answer's fields, and how the verification ends (if it does). */
export interface CheckVerdict {
  success: boolean;
  reason: 'incorrect_code' | 'expired' | 'attempts_exhausted' | null;
  end?: { status: 'verified' | 'failed' | 'expired'; reason: string | null };
  attemptsRemaining: number | null;
  /** On a match: the attempt the matching passcode was first sent with. */
  matchedAttempt?: string;
}

/**
 * The verdict on a code, for a verification whose check was just spent (`row.checks` counts
 * it): expired past `expires_at`, verified on a match with any kept hash (compared in constant
 * time), failed when that was the last check, else wrong with the checks left.
 */
export function verdictOf(
  row: VerificationRow,
  code: string,
  key: Buffer,
  now: Date,
): CheckVerdict {
  if (new Date(row.expires_at) <= now)
    return {
      success: false,
      reason: 'expired',
      end: { status: 'expired', reason: 'ttl_elapsed' },
      attemptsRemaining: null,
    };
  const matched = passcodeMatch(key, row.id, code, row.code_hashes);
  if (matched >= 0)
    return {
      success: true,
      reason: null,
      end: { status: 'verified', reason: null },
      attemptsRemaining: null,
      matchedAttempt: row.code_attempts[matched],
    };
  if (row.checks >= row.max_checks)
    return {
      success: false,
      reason: 'attempts_exhausted',
      end: { status: 'failed', reason: 'attempts_exhausted' },
      attemptsRemaining: null,
    };
  return {
    success: false,
    reason: 'incorrect_code',
    attemptsRemaining: row.max_checks - row.checks,
  };
}

/** A verification that had no check left although pending: its checks just ran out. */
export const EXHAUSTED: CheckVerdict = {
  success: false,
  reason: 'attempts_exhausted',
  end: { status: 'failed', reason: 'attempts_exhausted' },
  attemptsRemaining: null,
};

export function answerOf(verdict: CheckVerdict, row: VerificationRow): VerificationCheckResult {
  return {
    success: verdict.success,
    reason: verdict.reason,
    verification: toVerificationDto(row),
    attempts_remaining: verdict.attemptsRemaining,
  };
}
