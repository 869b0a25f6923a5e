import { Injectable } from '@nestjs/common';
import { newId } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import { PasscodeDelivery } from './passcode-delivery';
import { Passcodes } from './passcodes';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';

/** An attempt this long in `sending` lost its process: the channel's time-out is far shorter. */
const LEASE_SECONDS = 30;
/** Attempts sent again per run at most: the rest wait for the next tick. */
const BATCH = 5;

/**
 * Sends again the passcodes whose process stopped between the commit and the channel's answer
 * (a crash, a restart): the attempt keeps its seed, so the passcode is derived again, and the
 * channel is asked with the attempt's Idempotency-Key, so one that had taken it answers with
 * the same message. Runs where the channels are reachable (the service's request side), every
 * few seconds; attempts of verifications that ended meanwhile are closed `delivery_timeout`.
 */
@Injectable()
export class PasscodeRecovery extends PeriodicJob {
  protected readonly everyMs = 5_000;

  constructor(
    private readonly repository: VerificationsRepository,
    private readonly delivery: PasscodeDelivery,
    private readonly passcodes: Passcodes,
    private readonly attempts: VerificationAttemptsRepository,
  ) {
    super();
  }

  private running = false;

  /** One run at a time in the process: a slow run is not joined by the next tick. */
  protected async work(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      return await this.sweep();
    } finally {
      this.running = false;
    }
  }

  private async sweep(): Promise<number> {
    let recovered = 0;
    // One claim per attempt, just before it is sent: claimed together, the last of a batch
    // could outlive its lease behind slow channels and be claimed and sent by another sweeper.
    for (; recovered < BATCH; recovered++) {
      const [attempt] = await this.attempts.claimStalledAttempts(LEASE_SECONDS, 1);
      if (!attempt) break;
      const [verification] = await this.repository.byIds(this.repository.reads, [
        attempt.verification_id,
      ]);
      if (!verification) continue;
      const code = this.passcodes.passcodeOf(verification, attempt.address, attempt.passcode_seed);
      await this.delivery.deliverOrFail(
        {
          requestId: newId('req'),
          workspaceId: verification.workspace_id,
          caller: { kind: 'operator' },
        },
        {
          row: verification,
          code,
          attemptId: attempt.id,
          seed: attempt.passcode_seed,
          index: Math.max(0, verification.channels.indexOf(attempt.channel)),
        },
      );
    }
    return recovered + (await this.attempts.abandonStalledAttempts(LEASE_SECONDS));
  }
}
