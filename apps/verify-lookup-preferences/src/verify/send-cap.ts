import { Inject, Injectable } from '@nestjs/common';
import { VerifyErrors } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { VerificationAttemptsRepository } from './verification-attempts.repository';

/**
 * The recipient's hourly cap (`VERIFY_SENDS_PER_HOUR` per address, a rolling hour): a send past
 * it is refused with 429 and `Retry-After` (when the oldest slot frees), and nothing is written.
 */
@Injectable()
export class SendCap {
  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    readonly attempts: VerificationAttemptsRepository,
  ) {}

  async spend(runner: SqlRunner, workspaceId: string, address: string, now: Date): Promise<void> {
    const refusal = this.refusalFor(
      await this.attempts.slotsSpent(runner, workspaceId, address),
      now,
    );
    if (refusal) throw refusal;
  }

  /** The 429 for an address that spent `slots` in the last hour, or undefined while it may send. */
  refusalFor(slots: readonly Date[], now: Date): AppError | undefined {
    const cap = this.config.VERIFY_SENDS_PER_HOUR;
    if (slots.length < cap) return undefined;
    const frees = slots[slots.length - cap].getTime() + 3_600_000;
    return new AppError(VerifyErrors.VerificationSendLimit, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil((frees - now.getTime()) / 1000))) },
    });
  }
}
