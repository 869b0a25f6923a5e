import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { wakeRelay } from '@switchboard/background';
import { inPgTransaction } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { outcomeOf } from './delivery-outcome';
import { verifyEvent } from './verification.mapper';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';

/** The channels whose events tell passcode deliveries, each read by its own durable consumer. */
const CHANNEL_PREFIXES = ['sms.', 'email.', 'whatsapp.'] as const;

/**
 * Turns the channels' delivery events for passcode messages into `verify.attempt.delivered` and
 * `.undelivered`, in one transaction per batch. A verification whose every attempt came back
 * undelivered, with no channel left in its plan, fails `undeliverable`. Seen twice, an outcome
 * changes nothing (only `sent` attempts move).
 */
@Injectable()
export class VerificationOutcomes implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly unsubscribes: Array<() => void> = [];

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    private readonly repository: VerificationsRepository,
    private readonly attempts: VerificationAttemptsRepository,
  ) {}

  onApplicationBootstrap(): void {
    const bus = eventBusFor(this.config);
    for (const prefix of CHANNEL_PREFIXES)
      this.unsubscribes.push(
        bus.subscribe(prefix, (events) => this.take(events), `verify-${prefix.slice(0, -1)}`),
      );
  }

  onApplicationShutdown(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
  }

  async take(events: OutboxEvent[]): Promise<void> {
    const outcomes = events.flatMap((event) => outcomeOf(event) ?? []);
    if (outcomes.length === 0) return;
    const byMessage = new Map(outcomes.map((outcome) => [outcome.messageId, outcome]));
    await inPgTransaction(this.repository.pool, async (runner) => {
      const moved = await this.attempts.recordOutcomes(runner, outcomes);
      const verifications = new Map(
        (
          await this.repository.byIds(runner, [...new Set(moved.map((a) => a.verification_id))])
        ).map((row) => [row.id, row]),
      );
      const emitted: OutboxEvent[] = [];
      for (const attempt of moved) {
        const outcome = byMessage.get(attempt.message_id as string);
        const row = verifications.get(attempt.verification_id);
        if (!outcome || !row) continue;
        const at = new Date(outcome.at);
        const common = { channel: attempt.channel, address: attempt.address };
        emitted.push(
          outcome.delivered
            ? verifyEvent('verify.attempt.delivered', row, at, {
                ...common,
                carrier: outcome.carrier,
                mcc_mnc: outcome.mccMnc,
                delivered_at: outcome.at,
              })
            : verifyEvent('verify.attempt.undelivered', row, at, {
                ...common,
                reason: outcome.reason,
                error: outcome.error,
                failed_at: outcome.at,
              }),
        );
        const planDone = row.channel_index >= row.channels.length - 1;
        if (outcome.delivered || row.status !== 'pending' || !planDone) continue;
        if (!(await this.attempts.allUndelivered(runner, row.id))) continue;
        const failed = await this.repository.finish(runner, row.id, 'failed', 'undeliverable');
        if (failed)
          emitted.push(
            verifyEvent('verify.verification.failed', failed, at, {
              status: 'failed',
              reason: 'undeliverable',
              channel: attempt.channel,
              last_attempt_reason: outcome.reason,
              failed_at: outcome.at,
            }),
          );
      }
      await this.repository.events(runner, emitted);
    });
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
  }
}
