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
import { IdempotentWrites, inPgTransaction } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { addressFor, PasscodeDelivery } from './passcode-delivery';
import type { PasscodeSendPlan } from './passcode-delivery';
import { PasscodeIssuer } from './passcode-issuer';
import { toVerificationDto } from './verification.mapper';
import { codeLengthOf, languageOf, metadataOf, planOf, recipientOf } from './verification-rules';
import type { PasscodeChannel, Recipient } from './verification-rules';
import { VerificationChecks } from './verification-checks';
import { NewVerifications } from './new-verifications';
import { SendCap } from './send-cap';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/**
 * Verifications addressed by recipient: create (or reuse, within the cooldown without sending),
 * next-channel, and check (VerificationChecks). The passcode lives in memory only until the
 * channel's service has it; the database keeps its keyed hash.
 */
@Injectable()
export class VerificationsService {
  private readonly logger = new Logger('Verify');

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    private readonly repository: VerificationsRepository,
    private readonly delivery: PasscodeDelivery,
    private readonly checks: VerificationChecks,
    private readonly writes: IdempotentWrites,
    private readonly sendCap: SendCap,
    private readonly newVerifications: NewVerifications,
    private readonly issuer: PasscodeIssuer,
  ) {}

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
    const language = languageOf(input.options?.language, recipient.phoneNumber);
    // Most creates are of a new verification: those without a key are group-committed.
    const fresh = context.idempotencyKey
      ? 'pending'
      : await this.newVerifications.create({
          workspaceId,
          recipient,
          plan,
          codeLength,
          language,
          metadata,
        });
    const now = new Date();
    const send: PasscodeSendPlan | { row: VerificationRow } | { replay: Verification } =
      fresh !== 'pending'
        ? fresh
        : await this.createOrReuse(context, recipient, plan, {
            codeLength,
            language,
            metadata,
            now,
          });
    if ('replay' in send) return send.replay;
    // Delivery is not part of the answer: the channels take the passcode after the commit, and
    // `verify.attempt.*` and `verify.verification.failed` tell how it went.
    if ('code' in send)
      void this.delivery
        .deliverOrFail(context, send as PasscodeSendPlan)
        .catch((err: Error) =>
          this.logger.error(`passcode delivery of ${send.row.id} failed: ${err.message}`),
        );
    return toVerificationDto(send.row);
  }

  /**
   * One create in its own transaction: a new verification, or the one in progress reused (no
   * send within the cooldown, a resend after it); one past `expires_at` ends and a new one starts.
   */
  private createOrReuse(
    context: RequestContext,
    recipient: Recipient,
    plan: PasscodeChannel[],
    options: CreateOptions,
  ): Promise<PasscodeSendPlan | { row: VerificationRow } | { replay: Verification }> {
    const workspaceId = workspaceOf(context);
    return inPgTransaction(this.repository.pool, async (runner) => {
      // The key's reply is kept with the create: a retry after a crash, or after the cooldown,
      // answers it instead of sending another passcode.
      const earlier = await this.writes.claimIn<Verification>(runner, context);
      if (earlier) return { replay: earlier.reply };
      const send = await this.createOrReuseIn(runner, workspaceId, recipient, plan, options);
      await this.writes.storeIn(runner, context, toVerificationDto(send.row));
      return send;
    });
  }

  private async createOrReuseIn(
    runner: SqlRunner,
    workspaceId: string,
    recipient: Recipient,
    plan: PasscodeChannel[],
    { codeLength, language, metadata, now }: CreateOptions,
  ): Promise<PasscodeSendPlan | { row: VerificationRow }> {
    let current = await this.repository.lockPending(runner, workspaceId, recipient);
    if (current && new Date(current.expires_at) <= now) {
      await this.repository.finish(runner, current.id, 'expired', 'ttl_elapsed');
      current = undefined;
    }
    const cooldownMs = this.config.VERIFY_RESEND_COOLDOWN_SECONDS * 1000;
    if (current?.last_sent_at && now.getTime() - current.last_sent_at.getTime() < cooldownMs)
      return { row: current };
    if (!current) {
      const address = (plan[0] === 'email' ? recipient.email : recipient.phoneNumber) as string;
      await this.sendCap.spend(runner, workspaceId, address, now);
      return this.newVerifications.createIn(
        runner,
        { workspaceId, recipient, plan, codeLength, language, metadata },
        now,
      );
    }
    // A resend goes where the last passcode went: a next-channel whose channel could not send
    // moved the plan past it, and the SDK's answer then is "create again to resend on the
    // current channel".
    const sentOn = current.last_channel ? current.channels.indexOf(current.last_channel) : -1;
    const index = sentOn >= 0 ? sentOn : current.channel_index;
    await this.sendCap.spend(
      runner,
      workspaceId,
      addressFor(current, current.channels[index]),
      now,
    );
    return this.issuer.issue(runner, current, index, { countsTowardCap: true, now });
  }

  async check(
    context: RequestContext,
    input: VerifyVerificationsCheckParams,
  ): Promise<VerificationCheckResult> {
    return this.checks.check(context, input);
  }

  /** Advances the plan by one channel at most and sends a fresh passcode there (no slot spent). */
  async nextChannel(
    context: RequestContext,
    input: VerifyVerificationsNextChannelParams,
  ): Promise<Verification> {
    const workspaceId = workspaceOf(context);
    const recipient = recipientOf(input.to);
    const now = new Date();
    const send = await inPgTransaction(this.repository.pool, async (runner) => {
      // Claimed first: a retry waits for this call's commit, then answers its reply.
      const earlier = await this.writes.claimIn<Verification>(runner, context);
      if (earlier) return { replay: earlier.reply };
      const current = await this.repository.lockPending(runner, workspaceId, recipient);
      if (!current || new Date(current.expires_at) <= now)
        throw new AppError(VerifyErrors.VerificationNotFound);
      const index = current.channel_index + 1;
      if (index >= current.channels.length)
        throw new AppError(VerifyErrors.NoNextChannel, {
          details: [
            { param: 'to', message: `the plan (${current.channels.join(', ')}) is exhausted` },
          ],
        });
      // Claimed under the lock: concurrent calls each advance the plan by one channel.
      await this.repository.channelPassed(runner, current.id, index);
      const plan = await this.issuer.issue(runner, current, index, { countsTowardCap: false, now });
      // Kept with the advance, so a retry whose first call outlived the gateway's time-out (or
      // its process) answers it rather than advancing again; replaced once delivery answers.
      await this.writes.storeIn(runner, context, toVerificationDto(plan.row));
      return plan;
    });
    if ('replay' in send) return send.replay;
    const outcome = await this.delivery.deliver(context, send);
    if (!outcome.sent && !outcome.inFlight) {
      await this.writes.forget(this.repository.pool, context);
      throw new AppError(VerifyErrors.NoAvailableChannel, {
        details: outcome.refusals.map((refusal) => ({
          param: `channels.${refusal.channel}`,
          message: `${refusal.reason}: ${refusal.error}`,
        })),
      });
    }
    const reply = toVerificationDto(outcome.verification);
    await this.writes.storeIn(this.repository.pool, context, reply);
    return reply;
  }
}

/** What a create asks beyond its recipient and plan. */
interface CreateOptions {
  codeLength: number;
  language: string;
  metadata: Record<string, unknown> | null;
  now: Date;
}
