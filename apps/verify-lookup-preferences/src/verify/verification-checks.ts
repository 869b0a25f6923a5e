import { Injectable } from '@nestjs/common';
import { VerifyErrors } from '@switchboard/contracts';
import type {
  RequestContext,
  VerificationCheckResult,
  VerifyVerificationsCheckParams,
} from '@switchboard/contracts';
import { wakeRelay } from '@switchboard/background';
import { IdempotentWrites } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { toVerificationDto, verifyEvent } from './verification.mapper';
import { passcodeMatches, recipientOf } from './verification-rules';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

const DIGITS = /^\d{1,12}$/;

/**
 * Checks of a submitted passcode, each one transaction: a check is spent first (atomically, so
 * concurrent wrong checks never pass the limit), then the code compared in constant time with
 * every valid hash. A wrong code is an answer (200, `success: false`), not an error.
 */
@Injectable()
export class VerificationChecks {
  constructor(
    private readonly repository: VerificationsRepository,
    private readonly writes: IdempotentWrites,
  ) {}

  async check(
    context: RequestContext,
    input: VerifyVerificationsCheckParams,
    key: Buffer,
  ): Promise<VerificationCheckResult> {
    const workspaceId = workspaceOf(context);
    const recipient = recipientOf(input.to);
    if (typeof input.code !== 'string' || !DIGITS.test(input.code))
      throw AppError.validation([{ param: 'code', message: 'must be the digits of the passcode' }]);
    const result = await this.writes.run(context, async (runner) => {
      const row = await this.repository.spendCheck(runner, workspaceId, recipient.key);
      if (!row) return this.noCheckLeft(runner, workspaceId, recipient.key);
      const now = new Date();
      if (new Date(row.expires_at) <= now) {
        const expired = await this.repository.finish(runner, row.id, 'expired', 'ttl_elapsed');
        return answer(false, 'expired', expired ?? row, null);
      }
      if (passcodeMatches(key, row.id, input.code, row.code_hashes)) {
        const verified = (await this.repository.finish(runner, row.id, 'verified', null)) ?? row;
        await this.repository.events(runner, [
          verifyEvent('verify.verification.verified', verified, now, {
            status: 'verified',
            channel: verified.last_channel,
            verified_at: now.toISOString(),
          }),
        ]);
        return answer(true, null, verified, null);
      }
      if (row.checks >= row.max_checks) {
        const failed = await this.repository.finish(runner, row.id, 'failed', 'attempts_exhausted');
        return answer(false, 'attempts_exhausted', failed ?? row, null);
      }
      return answer(false, 'incorrect_code', row, row.max_checks - row.checks);
    });
    if (result.success) wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    return result;
  }

  /**
   * No check could be spent: a verification whose checks a concurrent caller just used up fails
   * now (`attempts_exhausted`); none in progress is the one 404 for missing and final.
   */
  private async noCheckLeft(
    runner: SqlRunner,
    workspaceId: string,
    recipientKey: string,
  ): Promise<VerificationCheckResult> {
    const pending = await this.repository.findPending(runner, workspaceId, recipientKey);
    if (!pending) throw new AppError(VerifyErrors.VerificationNotFound);
    const failed = await this.repository.finish(runner, pending.id, 'failed', 'attempts_exhausted');
    return answer(false, 'attempts_exhausted', failed ?? pending, null);
  }
}

function answer(
  success: boolean,
  reason: string | null,
  row: VerificationRow,
  attemptsRemaining: number | null,
): VerificationCheckResult {
  return {
    success,
    reason,
    verification: toVerificationDto(row),
    attempts_remaining: attemptsRemaining,
  };
}
