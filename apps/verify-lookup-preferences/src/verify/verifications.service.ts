import { createHmac } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { VerifyErrors } from '@switchboard/contracts';
import type {
  RequestContext,
  Verification,
  VerificationCheckResult,
  VerifyVerificationsCheckParams,
  VerifyVerificationsCreateParams,
  VerifyVerificationsNextChannelParams,
} from '@switchboard/contracts';
import { wakeRelay } from '@switchboard/background';
import { IdempotentWrites, inPgTransaction, newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { addressFor, PasscodeDelivery } from './passcode-delivery';
import type { DeliveryOutcome } from './passcode-delivery';
import { toVerificationDto, verifyEvent } from './verification.mapper';
import {
  codeLengthOf,
  languageOf,
  metadataOf,
  newPasscode,
  passcodeHash,
  planOf,
  recipientOf,
} from './verification-rules';
import { VerificationChecks } from './verification-checks';
import { testRecipientsOf } from './test-recipients';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** A passcode committed with its attempt, to hand to the channels once the commit is done. */
interface PendingSend {
  row: VerificationRow;
  code: string;
  attemptId: string;
  index: number;
}

/**
 * Verifications addressed by recipient: create (or reuse, within the cooldown without sending),
 * next-channel, and check (VerificationChecks). The passcode lives in memory only until the
 * channel's service has it; the database keeps its keyed hash.
 */
@Injectable()
export class VerificationsService {
  private readonly key: Buffer;
  private readonly logger = new Logger('Verify');
  /** Recipients whose passcode is the test code and who are never sent one. */
  private readonly testRecipients: ReadonlySet<string>;

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    private readonly repository: VerificationsRepository,
    private readonly delivery: PasscodeDelivery,
    private readonly checks: VerificationChecks,
    private readonly writes: IdempotentWrites,
  ) {
    this.key = passcodeKeyOf(config.ENCRYPTION_KEY);
    this.testRecipients = testRecipientsOf(config);
  }

  async create(
    context: RequestContext,
    input: VerifyVerificationsCreateParams,
  ): Promise<Verification> {
    const workspaceId = workspaceOf(context);
    const recipient = recipientOf(input.to);
    const plan = planOf(recipient, input.options?.channels);
    const codeLength = codeLengthOf(input.options, this.config.VERIFY_CODE_LENGTH);
    const metadata = metadataOf(input.metadata);
    const replay = await this.writes.replayOf<Verification>(context);
    if (replay) return replay;
    const now = new Date();
    const send = await inPgTransaction(this.repository.pool, async (runner) => {
      let current = await this.repository.lockPending(runner, workspaceId, recipient.key);
      if (current && new Date(current.expires_at) <= now) {
        await this.repository.finish(runner, current.id, 'expired', 'ttl_elapsed');
        current = undefined;
      }
      const cooldownMs = this.config.VERIFY_RESEND_COOLDOWN_SECONDS * 1000;
      if (current?.last_sent_at && now.getTime() - current.last_sent_at.getTime() < cooldownMs)
        return { row: current };
      const row =
        current ??
        (await this.repository.insert(runner, {
          id: newId('vrf'),
          workspace_id: workspaceId,
          recipient_key: recipient.key,
          email: recipient.email,
          phone_number: recipient.phoneNumber,
          status: 'pending',
          reason: null,
          channels: plan,
          channel_index: 0,
          last_channel: null,
          language: languageOf(input.options?.language, recipient.phoneNumber),
          code_length: codeLength,
          code_hashes: [],
          checks: 0,
          max_checks: this.config.VERIFY_MAX_CHECKS,
          metadata,
          last_sent_at: null,
          expires_at: new Date(now.getTime() + this.config.VERIFY_CODE_TTL_SECONDS * 1000),
          verified_at: null,
        }));
      const index = current ? current.channel_index : 0;
      await this.spendSlot(runner, workspaceId, addressFor(row, row.channels[index]), now);
      if (!current)
        await this.repository.events(runner, [
          verifyEvent('verify.verification.created', row, now, {
            channel: row.channels[0],
            status: 'pending',
            created_at: now.toISOString(),
          }),
        ]);
      return this.newPasscode(runner, row, index, true, now);
    });
    // Delivery is not part of the answer: the channels take the passcode after the commit, and
    // `verify.attempt.*` and `verify.verification.failed` tell how it went.
    if ('code' in send)
      void this.deliverOrFail(context, send).catch((err: Error) =>
        this.logger.error(`passcode delivery of ${send.row.id} failed: ${err.message}`),
      );
    return this.remember(context, toVerificationDto(send.row));
  }

  async check(
    context: RequestContext,
    input: VerifyVerificationsCheckParams,
  ): Promise<VerificationCheckResult> {
    return this.checks.check(context, input, this.key);
  }

  /** Advances the plan by one channel at most and sends a fresh passcode there (no slot spent). */
  async nextChannel(
    context: RequestContext,
    input: VerifyVerificationsNextChannelParams,
  ): Promise<Verification> {
    const workspaceId = workspaceOf(context);
    const recipient = recipientOf(input.to);
    const replay = await this.writes.replayOf<Verification>(context);
    if (replay) return replay;
    const now = new Date();
    const send = await inPgTransaction(this.repository.pool, async (runner) => {
      const current = await this.repository.lockPending(runner, workspaceId, recipient.key);
      if (!current || new Date(current.expires_at) <= now)
        throw new AppError(VerifyErrors.VerificationNotFound);
      const index = current.channel_index + 1;
      if (index >= current.channels.length)
        throw new AppError(VerifyErrors.NoNextChannel, {
          details: [
            { param: 'to', message: `the plan (${current.channels.join(', ')}) is exhausted` },
          ],
        });
      return this.newPasscode(runner, current, index, false, now);
    });
    const minutes = this.minutesLeft(send.row);
    const outcome = await this.delivery.deliver(context, send.row, send.code, send, minutes);
    if (!outcome.sent)
      throw new AppError(VerifyErrors.NoAvailableChannel, {
        details: outcome.refusals.map((refusal) => ({
          param: `channels.${refusal.channel}`,
          message: `${refusal.reason}: ${refusal.error}`,
        })),
      });
    return this.remember(context, toVerificationDto(outcome.verification));
  }

  /** A fresh passcode: its hash kept, its first attempt recorded; the code itself returned. */
  private async newPasscode(
    runner: SqlRunner,
    row: VerificationRow,
    index: number,
    countsTowardCap: boolean,
    now: Date,
  ): Promise<PendingSend> {
    const code = this.testRecipients.has(addressFor(row, row.channels[index]))
      ? this.config.VERIFY_TEST_CODE
      : newPasscode(row.code_length);
    const updated = await this.repository.addPasscode(
      runner,
      row.id,
      passcodeHash(this.key, row.id, code),
      now,
    );
    const attemptId = newId('vat');
    await this.repository.insertAttempt(runner, {
      id: attemptId,
      workspace_id: row.workspace_id,
      verification_id: row.id,
      channel: row.channels[index],
      address: addressFor(row, row.channels[index]),
      countsTowardCap,
    });
    return { row: updated, code, attemptId, index };
  }

  /** The recipient's hourly cap: a send past it is refused (429) and nothing is written. */
  private async spendSlot(runner: SqlRunner, workspaceId: string, address: string, now: Date) {
    const spent = await this.repository.slotsSpent(runner, workspaceId, address);
    if (spent.length < this.config.VERIFY_SENDS_PER_HOUR) return;
    const frees = spent[spent.length - this.config.VERIFY_SENDS_PER_HOUR].getTime() + 3_600_000;
    throw new AppError(VerifyErrors.VerificationSendLimit, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil((frees - now.getTime()) / 1000))) },
    });
  }

  /** Sends through the plan; when no channel takes it the verification fails `undeliverable`. */
  private async deliverOrFail(
    context: RequestContext,
    send: PendingSend,
  ): Promise<VerificationRow> {
    const outcome: DeliveryOutcome = await this.delivery.deliver(
      context,
      send.row,
      send.code,
      send,
      this.minutesLeft(send.row),
    );
    if (outcome.sent) return outcome.verification;
    const last = outcome.refusals[outcome.refusals.length - 1];
    const failed = await inPgTransaction(this.repository.pool, async (runner) => {
      const row = await this.repository.finish(runner, send.row.id, 'failed', 'undeliverable');
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
    });
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    return failed ?? (await this.repository.find(send.row.workspace_id, send.row.id)) ?? send.row;
  }

  private minutesLeft(row: VerificationRow): number {
    return Math.max(1, Math.round((new Date(row.expires_at).getTime() - Date.now()) / 60_000));
  }

  /** The reply kept for the request's Idempotency-Key (none without one), then answered. */
  private async remember(context: RequestContext, verification: Verification) {
    if (!context.idempotencyKey) return verification;
    return this.writes.run(context, () => Promise.resolve(verification));
  }
}

/** The key passcodes are hashed with, derived from the service's secret for this use only. */
export function passcodeKeyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('switchboard verify passcode key').digest();
}
