import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { wakeRelay } from '@switchboard/background';
import { inPgTransaction } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { outcomeOf } from './delivery-outcome';
import type { DeliveryOutcomeEvent } from './delivery-outcome';
import { PasscodeIssuer } from './passcode-issuer';
import { verifyEvent } from './verification.mapper';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import type { AttemptRow } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** The channels whose events tell passcode deliveries, each read by its own durable consumer. */
const CHANNEL_PREFIXES = ['sms.', 'email.', 'whatsapp.'] as const;

/**
 * Turns the channels' delivery events for passcode messages into `verify.attempt.delivered` and
 * `.undelivered`, in one transaction per batch. A passcode that did not arrive on the plan's
 * current channel moves the plan to the next one, with a fresh passcode there (the SDK: "moves
 * to the next planned channel if delivery fails"). A verification whose every attempt came back
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
    private readonly issuer: PasscodeIssuer,
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
      // An outcome that came before the acceptance was recorded: the channel took the passcode,
      // so what recording it does (the plan's position, last_channel, verify.attempt.sent) is
      // done here, before the outcome is judged against the plan.
      for (const row of await this.sentEarly(runner, moved, verifications, byMessage, emitted))
        verifications.set(row.id, row);
      const failovers = new Map<string, { row: VerificationRow; index: number }>();
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
        if (outcome.delivered || row.status !== 'pending') continue;
        const index = row.channels.indexOf(attempt.channel);
        if (index === row.channel_index && index + 1 < row.channels.length) {
          failovers.set(row.id, { row, index });
          continue;
        }
        if (row.channel_index < row.channels.length - 1) continue;
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
      for (const { row, index } of failovers.values())
        await this.failOver(runner, row, index, new Date());
      await this.repository.events(runner, emitted);
    });
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
  }

  /** Records as sent the attempts an early outcome moved; answers their verifications after. */
  private async sentEarly(
    runner: SqlRunner,
    moved: Array<AttemptRow & { early: boolean }>,
    verifications: Map<string, VerificationRow>,
    byMessage: Map<string, DeliveryOutcomeEvent>,
    emitted: OutboxEvent[],
  ): Promise<VerificationRow[]> {
    const early = moved.flatMap((attempt) => {
      const row = verifications.get(attempt.verification_id);
      return attempt.early && row ? [{ attempt, row }] : [];
    });
    // Refused before the carrier (sms.rejected, whatsapp.rejected): never sent, only passed.
    const passed = early.filter(({ attempt }) => refusedAtHandoff(attempt));
    const sent = early.filter(({ attempt }) => !refusedAtHandoff(attempt));
    for (const { attempt, row } of passed)
      await this.repository.channelPassed(runner, row.id, row.channels.indexOf(attempt.channel));
    for (const { attempt, row } of sent) {
      const at = byMessage.get(attempt.message_id as string)?.at ?? new Date().toISOString();
      emitted.push(
        verifyEvent('verify.attempt.sent', row, new Date(at), {
          channel: attempt.channel,
          address: attempt.address,
          from: null,
          sent_at: at,
        }),
      );
    }
    const sentRows = sent.length
      ? await this.repository.channelSentMany(
          runner,
          sent.map(({ attempt, row }) => ({
            verificationId: row.id,
            channel: attempt.channel,
            index: Math.max(0, row.channels.indexOf(attempt.channel)),
          })),
        )
      : [];
    const passedRows = passed.length
      ? await this.repository.byIds(
          runner,
          passed.map(({ row }) => row.id),
        )
      : [];
    return [...sentRows, ...passedRows];
  }

  /**
   * The passcode sent on channel `index` did not arrive: the plan moves to the next channel and
   * a fresh passcode is issued there, in this transaction, as an attempt `PasscodeRecovery`
   * sends at its next sweep (this part cannot reach the channels). Under the recipient's lock,
   * and only if nothing moved the plan meanwhile (a next-channel call, a redelivered outcome).
   */
  private async failOver(runner: SqlRunner, seen: VerificationRow, index: number, now: Date) {
    const recipient = {
      key: seen.recipient_key,
      email: seen.email,
      phoneNumber: seen.phone_number,
    };
    await this.repository.lockRecipients(runner, [{ workspaceId: seen.workspace_id, recipient }]);
    const [row] = await this.repository.byIds(runner, [seen.id]);
    if (!row || row.status !== 'pending' || row.channel_index !== index) return;
    if (new Date(row.expires_at) <= now) return;
    await this.repository.channelPassed(runner, row.id, index + 1);
    await this.issuer.issue(runner, row, index + 1, {
      countsTowardCap: false,
      now,
      unclaimed: true,
    });
  }
}

/** An attempt its channel refused at handoff (an opt-out, a withdrawn sender): never sent. */
function refusedAtHandoff(attempt: AttemptRow): boolean {
  return attempt.status === 'undelivered' && attempt.reason === 'channel_unavailable';
}
