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
    const cap = this.config.VERIFY_SENDS_PER_HOUR;
    const spent = await this.attempts.slotsSpent(runner, workspaceId, address);
    if (spent.length < cap) return;
    const frees = spent[spent.length - cap].getTime() + 3_600_000;
    throw new AppError(VerifyErrors.VerificationSendLimit, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil((frees - now.getTime()) / 1000))) },
    });
  }
}
