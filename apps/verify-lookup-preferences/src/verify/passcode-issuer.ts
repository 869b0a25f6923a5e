import { Injectable } from '@nestjs/common';
import { newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { PasscodeSendPlan } from './passcode-delivery';
import { addressFor } from './passcode-delivery';
import { Passcodes } from './passcodes';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { newPasscodeSeed } from './verification-rules';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

export interface IssueOptions {
  /** Whether the attempt spends a slot of the address's hourly cap. */
  countsTowardCap: boolean;
  now: Date;
  /**
   * Nobody sends it now: the attempt is left for `PasscodeRecovery`, which sends it at its next
   * sweep (the background part, which cannot reach the channels, fails over this way).
   */
  unclaimed?: boolean;
}

/**
 * A fresh passcode in the caller's transaction: derived from a new seed, its keyed hash added
 * to the verification, its attempt on channel `index` recorded with the seed. The passcode
 * itself is only returned, to go to the channel.
 */
@Injectable()
export class PasscodeIssuer {
  constructor(
    private readonly repository: VerificationsRepository,
    private readonly passcodes: Passcodes,
    private readonly attempts: VerificationAttemptsRepository,
  ) {}

  async issue(
    runner: SqlRunner,
    row: VerificationRow,
    index: number,
    options: IssueOptions,
  ): Promise<PasscodeSendPlan> {
    const address = addressFor(row, row.channels[index]);
    const seed = newPasscodeSeed();
    const code = this.passcodes.passcodeOf(row, address, seed);
    const attemptId = newId('vat');
    const updated = await this.repository.addPasscode(
      runner,
      row.id,
      this.passcodes.hashOf(row.id, code),
      attemptId,
      options.now,
    );
    await this.attempts.insertAttempt(runner, {
      id: attemptId,
      workspace_id: row.workspace_id,
      verification_id: row.id,
      channel: row.channels[index],
      address,
      seed,
      countsTowardCap: options.countsTowardCap,
      unclaimed: options.unclaimed,
    });
    return { row: updated, code, attemptId, seed, index };
  }
}
