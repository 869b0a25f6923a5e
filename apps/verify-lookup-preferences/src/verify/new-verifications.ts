import { Inject, Injectable } from '@nestjs/common';
import { CommitBatcher } from '@switchboard/background';
import { inPgTransaction, newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import type { PasscodeSendPlan } from './passcode-delivery';
import { distinctRounds } from './distinct-rounds';
import { Passcodes } from './passcodes';
import { SendCap } from './send-cap';
import { verifyEvent } from './verification.mapper';
import { newPasscodeSeed } from './verification-rules';
import type { PasscodeChannel, Recipient } from './verification-rules';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** A create without an Idempotency-Key, waiting for the next shared transaction. */
export interface NewVerification {
  workspaceId: string;
  recipient: Recipient;
  plan: PasscodeChannel[];
  codeLength: number;
  language: string;
  metadata: Record<string, unknown> | null;
  /** Set by the batch: the passcode to send, or `pending` when one is in progress (reuse it). */
  outcome?: PasscodeSendPlan | 'pending';
}

/**
 * Group commit of new verifications: the creates that arrive while one transaction runs are
 * written together by the next (their recipients and addresses locked, their pending
 * verifications and hourly caps read, then every verification, first attempt and
 * `verify.verification.created` event inserted: six statements, whatever the number). Under load
 * that is one WAL flush and a few round trips for many creates, where each took about ten.
 * A recipient with a verification in progress is answered `pending`: the caller reuses it
 * alone; a recipient twice in a batch waits for the next transaction.
 */
@Injectable()
export class NewVerifications {
  private readonly waiting = new CommitBatcher<NewVerification>((items) =>
    this.createTogether(items),
  );

  constructor(
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG)
    private readonly config: VerifyLookupPreferencesConfig,
    private readonly repository: VerificationsRepository,
    private readonly attempts: VerificationAttemptsRepository,
    private readonly passcodes: Passcodes,
    private readonly sendCap: SendCap,
  ) {}

  async create(item: NewVerification): Promise<PasscodeSendPlan | 'pending'> {
    await this.waiting.add(item);
    return item.outcome as PasscodeSendPlan | 'pending';
  }

  private async createTogether(items: NewVerification[]): Promise<Array<Error | undefined>> {
    const failures: Array<Error | undefined> = items.map(() => undefined);
    for (const now of distinctRounds(
      items,
      (item) => `${item.workspaceId} ${item.recipient.key}`,
    )) {
      await inPgTransaction(
        this.repository.pool,
        async (runner) => {
          await this.repository.lockRecipients(
            runner,
            now.map(({ item }) => item),
          );
          const pending = new Set(
            (
              await this.repository.pendingOf(
                runner,
                now.map(({ item }) => ({ workspaceId: item.workspaceId, key: item.recipient.key })),
              )
            ).map((row) => `${row.workspace_id} ${row.recipient_key}`),
          );
          const fresh = now.filter(({ item }) => {
            if (!pending.has(`${item.workspaceId} ${item.recipient.key}`)) return true;
            item.outcome = 'pending';
            return false;
          });
          const addressOf = ({ item }: (typeof now)[number]) =>
            (item.plan[0] === 'email'
              ? item.recipient.email
              : item.recipient.phoneNumber) as string;
          const spent = await this.attempts.slotsSpentMany(
            runner,
            fresh.map((entry) => ({
              workspaceId: entry.item.workspaceId,
              address: addressOf(entry),
            })),
          );
          const at = new Date();
          // Recipients differ within a round, but their first addresses may not (one phone
          // number beside several emails): each send spends its address's slot for the next.
          const spending = new Map<string, readonly Date[]>();
          const rows = fresh.flatMap((entry) => {
            const address = `${entry.item.workspaceId} ${addressOf(entry)}`;
            const slots = spending.get(address) ?? spent.get(address) ?? [];
            const refusal = this.sendCap.refusalFor(slots, at);
            if (!refusal) {
              spending.set(address, [...slots, at]);
              return [this.draft(entry.item, at)];
            }
            failures[entry.index] = refusal;
            return [];
          });
          const plans = await this.insert(runner, rows, at);
          rows.forEach((row, index) => (row.item.outcome = plans[index]));
        },
        // Prepared: few fixed statements, run for every create under load. Planned each time
        // (parsed once): a plan kept from when the tables were near empty scanned them whole
        // for every batch once they had filled, until an ANALYZE came (17 ms a batch).
        { prepared: true, settings: { plan_cache_mode: 'force_custom_plan' } },
      );
    }
    return failures;
  }

  /**
   * One new verification in the caller's transaction, which holds its recipient's lock and has
   * spent its send slot: the single create's path (an Idempotency-Key, or one that found an
   * expired verification), written as the batch writes them.
   */
  async createIn(runner: SqlRunner, item: NewVerification, at: Date): Promise<PasscodeSendPlan> {
    const [plan] = await this.insert(runner, [this.draft(item, at)], at);
    return plan;
  }

  /** Verifications, their first attempts and `verify.verification.created`: three statements. */
  private async insert(
    runner: SqlRunner,
    rows: Array<ReturnType<NewVerifications['draft']>>,
    at: Date,
  ): Promise<PasscodeSendPlan[]> {
    const inserted = new Map(
      (await this.repository.insertMany(runner, rows)).map((row) => [row.id, row]),
    );
    await this.attempts.insertFirstAttempts(
      runner,
      rows.map((row) => ({
        id: row.attemptId,
        workspace_id: row.workspace_id,
        verification_id: row.id,
        channel: row.channels[0],
        address: (row.channels[0] === 'email' ? row.email : row.phone_number) as string,
        passcode_seed: row.seed,
      })),
    );
    await this.repository.events(
      runner,
      [...inserted.values()].map((row) =>
        verifyEvent('verify.verification.created', row, at, {
          channel: row.channels[0],
          status: 'pending',
          created_at: at.toISOString(),
        }),
      ),
    );
    return rows.map((row) => ({
      row: inserted.get(row.id) as VerificationRow,
      code: row.code,
      attemptId: row.attemptId,
      seed: row.seed,
      index: 0,
    }));
  }

  /** A new verification's row, its first passcode (derived from a fresh seed) and attempt. */
  private draft(item: NewVerification, at: Date) {
    const id = newId('vrf');
    const seed = newPasscodeSeed();
    const row = {
      id,
      workspace_id: item.workspaceId,
      recipient_key: item.recipient.key,
      email: item.recipient.email,
      phone_number: item.recipient.phoneNumber,
      status: 'pending' as const,
      reason: null,
      channels: item.plan,
      channel_index: 0,
      last_channel: null,
      language: item.language,
      code_length: item.codeLength,
      checks: 0,
      max_checks: this.config.VERIFY_MAX_CHECKS,
      metadata: item.metadata,
      last_sent_at: at,
      expires_at: new Date(at.getTime() + this.config.VERIFY_CODE_TTL_SECONDS * 1000),
      verified_at: null,
    };
    const address = (
      item.plan[0] === 'email' ? item.recipient.email : item.recipient.phoneNumber
    ) as string;
    const code = this.passcodes.passcodeOf(row as unknown as VerificationRow, address, seed);
    return {
      ...row,
      item,
      seed,
      code,
      attemptId: newId('vat'),
      hash: this.passcodes.hashOf(id, code),
    };
  }
}
