import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '@switchboard/contracts';
import { CommitBatcher, wakeRelay } from '@switchboard/background';
import { inPgTransaction } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { verifyEvent } from './verification.mapper';
import { PASSCODE_CARRIERS } from './passcode-channels';
import type {
  PasscodeCarrier,
  PasscodeFailureReason,
  PasscodeSendResult,
} from './passcode-channels';
import { Passcodes } from './passcodes';
import type { PasscodeChannel } from './verification-rules';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** A channel's acceptance of an attempt, waiting to be recorded. */
interface SentPasscode {
  attemptId: string;
  verificationId: string;
  messageId: string;
  sender: string | null;
  channel: string;
  index: number;
  address: string;
  at: Date;
  /** Set by the commit that records it. */
  verification?: VerificationRow;
}

/** A passcode committed with its first attempt, to hand to the channels. */
export interface PasscodeSendPlan {
  row: VerificationRow;
  code: string;
  attemptId: string;
  seed: string;
  index: number;
}

/**
 * How a passcode went out: the verification after it, and each channel that refused.
 * `inFlight`: a channel's answer was lost (a time-out); its attempt stays `sending` and the
 * recovery asks it again.
 */
export interface DeliveryOutcome {
  verification: VerificationRow;
  sent: boolean;
  inFlight?: boolean;
  refusals: Array<{ channel: string; reason: PasscodeFailureReason; error: string }>;
}

/**
 * Hands a passcode to the plan's channels from the plan's position, one at a time, until one
 * takes it. Each try is an attempt (the first recorded with the passcode; the next ones here,
 * `<first id>.<index>`, spending no send slot, with the same seed) and each answer its
 * `verify.attempt.sent` or `.undelivered` event. A channel is asked with the attempt's id as
 * Idempotency-Key, so an attempt sent again after a crash is one message, not two.
 */
@Injectable()
export class PasscodeDelivery {
  /**
   * Group commit of the channels' acceptances: the attempts taken while one transaction runs
   * are recorded together by the next (attempts sent, verifications' last channel, their
   * `verify.attempt.sent` events: three statements, whatever the number).
   */
  private readonly sent = new CommitBatcher<SentPasscode>((records) => this.recordSent(records));

  constructor(
    @Inject(PASSCODE_CARRIERS) private readonly carriers: Map<PasscodeChannel, PasscodeCarrier>,
    private readonly repository: VerificationsRepository,
    private readonly passcodes: Passcodes,
    private readonly attempts: VerificationAttemptsRepository,
  ) {}

  async deliver(
    context: RequestContext,
    plan: PasscodeSendPlan,
    options: { failUndeliverable?: boolean } = {},
  ): Promise<DeliveryOutcome> {
    const { row, code } = plan;
    const refusals: DeliveryOutcome['refusals'] = [];
    const minutes = Math.max(
      1,
      Math.round((new Date(row.expires_at).getTime() - Date.now()) / 60_000),
    );
    let attemptId = plan.attemptId;
    for (let index = plan.index; index < row.channels.length; index++) {
      const channel = row.channels[index] as PasscodeChannel;
      const address = addressFor(row, channel);
      if (index > plan.index) {
        attemptId = `${plan.attemptId}.${index}`;
        // Inserted with the refusal before it, as a rule. An earlier run (before a crash) may
        // have tried this channel already: its answer stands.
        const fresh = await this.attempts.insertAttempt(
          this.repository.reads,
          fallbackAttempt(plan, index),
        );
        const earlier = fresh
          ? 'sending'
          : await this.attempts.statusOf(this.repository.reads, attemptId);
        if (earlier === 'undelivered') continue;
        if (earlier !== 'sending') {
          const verification = (await this.repository.find(row.workspace_id, row.id)) ?? row;
          return { verification, sent: true, refusals };
        }
      }
      let result: PasscodeSendResult;
      try {
        result = await this.send(
          context,
          row.workspace_id,
          attemptId,
          { verificationId: row.id, attemptId, address, code, language: row.language, minutes },
          channel,
        );
      } catch {
        return { verification: row, sent: false, inFlight: true, refusals };
      }
      const now = new Date();
      if (result.ok) {
        const sent: SentPasscode = {
          attemptId,
          verificationId: row.id,
          messageId: result.messageId,
          sender: result.from,
          channel,
          index,
          address,
          at: now,
        };
        await this.sent.add(sent);
        return { verification: sent.verification ?? row, sent: true, refusals };
      }
      refusals.push({ channel, reason: result.reason, error: result.error });
      const next = index + 1 < row.channels.length ? index + 1 : undefined;
      // With the refusal, what follows it: the next channel's attempt (which the recovery finds
      // if this process stops before sending it), or the verification failed. Committed apart,
      // a crash between them left no attempt to recover and the verification pending.
      const after = await inPgTransaction(this.repository.pool, async (runner) => {
        const position = await this.repository.lockPlan(runner, row);
        // Another run answered this attempt meanwhile: what follows is its to decide.
        if (!(await this.attempts.markRefused(runner, attemptId, result))) return 'answered';
        // A next-channel call took the plan past this channel meanwhile: the next one is its to
        // send (falling through too would send that channel a second passcode).
        const superseded = position !== undefined && position > index;
        // The plan stands at the channel about to be tried, so a next-channel call moves past it.
        await this.repository.channelPassed(
          runner,
          row.id,
          next !== undefined && !superseded ? next : index,
        );
        await this.repository.events(runner, [
          verifyEvent('verify.attempt.undelivered', row, now, {
            channel,
            address,
            reason: result.reason,
            error: result.error,
            failed_at: now.toISOString(),
          }),
        ]);
        if (superseded) return 'answered';
        if (next !== undefined) {
          await this.attempts.insertAttempt(runner, fallbackAttempt(plan, next));
          return undefined;
        }
        if (!options.failUndeliverable) return undefined;
        return this.failUndeliverable(runner, row.id, refusals[refusals.length - 1]);
      });
      if (after === 'answered') {
        const verification = (await this.repository.find(row.workspace_id, row.id)) ?? row;
        return { verification, sent: false, inFlight: true, refusals };
      }
      if (after) {
        wakeRelay(this.repository.pool, 'verify_lookup_preferences');
        return { verification: after, sent: false, refusals };
      }
    }
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    const verification = (await this.repository.find(row.workspace_id, row.id)) ?? row;
    return { verification, sent: false, refusals };
  }

  /**
   * The verification failed `undeliverable` when no attempt of it was ever taken (the recipient
   * never had a passcode); undefined otherwise, or when it ended meanwhile.
   */
  private async failUndeliverable(
    runner: SqlRunner,
    verificationId: string,
    last: DeliveryOutcome['refusals'][number] | undefined,
  ): Promise<VerificationRow | undefined> {
    if (!(await this.attempts.allUndelivered(runner, verificationId))) return undefined;
    const row = await this.repository.finish(runner, verificationId, 'failed', 'undeliverable');
    if (!row) return undefined;
    const now = new Date();
    await this.repository.events(runner, [
      verifyEvent('verify.verification.failed', row, now, {
        status: 'failed',
        reason: 'undeliverable',
        channel: last?.channel ?? null,
        last_attempt_reason: last?.reason ?? 'channel_unavailable',
        failed_at: now.toISOString(),
      }),
    ]);
    return row;
  }

  private async recordSent(records: SentPasscode[]): Promise<void> {
    await inPgTransaction(
      this.repository.pool,
      async (runner) => {
        // An attempt answered twice (two runs asked at once) is recorded and told once.
        const moved = await this.attempts.markSentMany(runner, records);
        const rows = new Map(
          (
            await this.repository.channelSentMany(
              runner,
              records.filter((record) => moved.has(record.attemptId)),
            )
          ).map((row) => [row.id, row]),
        );
        for (const record of records) record.verification = rows.get(record.verificationId);
        await this.repository.events(
          runner,
          records.flatMap((record) =>
            record.verification && moved.has(record.attemptId)
              ? [
                  verifyEvent('verify.attempt.sent', record.verification, record.at, {
                    channel: record.channel,
                    address: record.address,
                    from: record.sender,
                    sent_at: record.at.toISOString(),
                  }),
                ]
              : [],
          ),
        );
      },
      // Prepared: few fixed statements, run for every passcode sent under load.
      { prepared: true },
    );
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
  }

  /**
   * `deliver`; when no channel takes the passcode and no earlier one was taken either (the
   * recipient never had a passcode) the verification fails `undeliverable`, with the last
   * refusal.
   */
  async deliverOrFail(context: RequestContext, plan: PasscodeSendPlan): Promise<VerificationRow> {
    return (await this.deliver(context, plan, { failUndeliverable: true })).verification;
  }

  private async send(
    context: RequestContext,
    workspaceId: string,
    attemptId: string,
    send: Parameters<PasscodeCarrier['send']>[1],
    channel: PasscodeChannel,
  ): Promise<PasscodeSendResult> {
    if (this.passcodes.isTestRecipient(workspaceId, send.address))
      return { ok: true, messageId: `test_${attemptId}`, from: null };
    const carrier = this.carriers.get(channel);
    if (!carrier)
      return { ok: false, reason: 'channel_unavailable', error: `${channel} is not enabled` };
    const key = `verify_${attemptId}`;
    return carrier.send({ ...context, idempotencyKey: key, idempotencyFingerprint: key }, send);
  }
}

/** The attempt of the plan's channel at `index` after the first: no send slot, the same seed. */
function fallbackAttempt(plan: PasscodeSendPlan, index: number) {
  const { row } = plan;
  const channel = row.channels[index];
  return {
    id: `${plan.attemptId}.${index}`,
    workspace_id: row.workspace_id,
    verification_id: row.id,
    channel,
    address: addressFor(row, channel),
    seed: plan.seed,
    countsTowardCap: false,
  };
}

/** The address a channel sends to: the phone number on SMS and WhatsApp, the email on email. */
export function addressFor(row: VerificationRow, channel: string): string {
  return (channel === 'email' ? row.email : row.phone_number) as string;
}
