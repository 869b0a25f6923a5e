import { Injectable } from '@nestjs/common';
import { VerifyErrors } from '@switchboard/contracts';
import type {
  RequestContext,
  VerificationCheckResult,
  VerifyVerificationsCheckParams,
} from '@switchboard/contracts';
import { CommitBatcher, wakeRelay } from '@switchboard/background';
import { IdempotentWrites, inPgTransaction } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import { answerOf, EXHAUSTED, verdictOf } from './check-verdict';
import type { CheckVerdict } from './check-verdict';
import { distinctRounds } from './distinct-rounds';
import { verifyEvent } from './verification.mapper';
import { recipientOf } from './verification-rules';
import { Passcodes } from './passcodes';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** A code to compare at all: anything else typed is just incorrect (the SDK: a 200, no error). */
const CODE = /^.{1,12}$/su;

/** A check without an Idempotency-Key, waiting for the next shared statement. */
interface WaitingCheck {
  workspaceId: string;
  key: string;
  code: string;
  answer?: VerificationCheckResult;
}

/** The recipient a check is for, as one key: its workspace and recipient key. */
function recipientOfCheck(check: { workspaceId: string; key: string }): string {
  return `${check.workspaceId} ${check.key}`;
}

/**
 * Checks of a submitted passcode. A check is spent first, atomically (`checks < max_checks` in
 * the UPDATE: concurrent wrong checks queue on the row and never pass the limit), then the code
 * is compared in constant time with every kept hash. A wrong code is an answer (200,
 * `success: false`), not an error.
 *
 * Checks without an Idempotency-Key are group-committed: those arriving while one statement runs
 * spend their checks together in the next (one statement and one WAL flush for many), and the
 * few that end a verification are written in one transaction with their events.
 */
@Injectable()
export class VerificationChecks {
  // Two statements at once: while one waits for its WAL flush, the next one already runs.
  private readonly waiting = new CommitBatcher<WaitingCheck>(
    (checks) => this.checkTogether(checks),
    2,
  );
  /** Recipients whose round (its statement, and its transaction if any) is under way. */
  private readonly rounds = new Map<string, Promise<void>>();

  constructor(
    private readonly repository: VerificationsRepository,
    private readonly attempts: VerificationAttemptsRepository,
    private readonly writes: IdempotentWrites,
    private readonly passcodes: Passcodes,
  ) {}

  async check(
    context: RequestContext,
    input: VerifyVerificationsCheckParams,
  ): Promise<VerificationCheckResult> {
    const workspaceId = workspaceOf(context);
    const recipient = recipientOf(input.to);
    if (typeof input.code !== 'string' || !CODE.test(input.code))
      throw AppError.validation([{ param: 'code', message: 'must be 1 to 12 characters' }]);
    if (context.idempotencyKey) return this.checkAlone(context, recipient.key, input.code);
    const check: WaitingCheck = { workspaceId, key: recipient.key, code: input.code };
    await this.waiting.add(check);
    return check.answer as VerificationCheckResult;
  }

  /** A check with an Idempotency-Key: one transaction with the key's claim, replayed on retry. */
  private async checkAlone(
    context: RequestContext,
    recipientKey: string,
    code: string,
  ): Promise<VerificationCheckResult> {
    const workspaceId = workspaceOf(context);
    const result = await this.writes.run(context, async (runner) => {
      const spent = await this.repository.spendCheck(runner, workspaceId, recipientKey);
      const row = spent ?? (await this.repository.findPending(runner, workspaceId, recipientKey));
      if (!row) throw new AppError(VerifyErrors.VerificationNotFound);
      const verdict = spent
        ? verdictOf(spent, code, this.passcodes.hashKey, new Date())
        : EXHAUSTED;
      const [ended] = await this.end(runner, [{ row, verdict }]);
      // Another check ended it first: it is final, so there is nothing left to check.
      if (verdict.end && !ended) throw new AppError(VerifyErrors.VerificationNotFound);
      return answerOf(verdict, ended ?? row);
    });
    if (result.success) wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    return result;
  }

  /**
   * One batch: checks of distinct recipients spend together; a recipient checked twice in the
   * batch waits for the next statement, so each of its checks is counted.
   */
  private async checkTogether(checks: WaitingCheck[]): Promise<Array<Error | undefined>> {
    const failures: Array<Error | undefined> = checks.map(() => undefined);
    const rounds = distinctRounds(checks, recipientOfCheck);
    for (const round of rounds)
      await this.exclusively(
        round.map(({ item }) => recipientOfCheck(item)),
        () => this.checkRound(checks, round, failures),
      );
    if (checks.some((check) => check.answer?.success))
      wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    return failures;
  }

  /**
   * Runs `round` once no other round holds any of its recipients, so the two statements
   * that may run at once never lock the same verification: they could not deadlock, and a
   * recipient's checks are counted one statement after the other.
   */
  private async exclusively(keys: string[], round: () => Promise<void>): Promise<void> {
    for (;;) {
      const earlier = keys.flatMap((key) => this.rounds.get(key) ?? []);
      if (earlier.length === 0) break;
      await Promise.all(earlier);
    }
    const running = round();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    for (const key of keys) this.rounds.set(key, settled);
    try {
      await running;
    } finally {
      for (const key of keys) if (this.rounds.get(key) === settled) this.rounds.delete(key);
    }
  }

  /** One round of a batch: its checks spent in one statement, then judged. */
  private async checkRound(
    checks: WaitingCheck[],
    round: Array<{ item: WaitingCheck; index: number }>,
    failures: Array<Error | undefined>,
  ): Promise<void> {
    const now = round.map(({ item, index }) => ({ check: item, index }));
    const spent = await this.repository.spendChecks(
      now.map(({ check }) => ({ workspaceId: check.workspaceId, key: check.key })),
    );
    const byRecipient = new Map(
      spent.map((row) => [
        recipientOfCheck({ workspaceId: row.workspace_id, key: row.recipient_key }),
        row,
      ]),
    );
    const unspent = now.filter(({ check }) => !byRecipient.has(recipientOfCheck(check)));
    const at = new Date();
    let judged = now.flatMap(({ check, index }) => {
      const row = byRecipient.get(recipientOfCheck(check));
      return row
        ? [{ index, row, verdict: verdictOf(row, check.code, this.passcodes.hashKey, at) }]
        : [];
    });
    // Most checks are wrong codes with checks left: nothing more to write for them.
    if (unspent.length > 0 || judged.some(({ verdict }) => verdict.end))
      await inPgTransaction(this.repository.pool, async (runner) => {
        for (const row of await this.pendingOf(
          runner,
          unspent.map(({ check }) => check),
        )) {
          const entry = unspent.find(
            ({ check }) =>
              check.workspaceId === row.workspace_id && check.key === row.recipient_key,
          );
          if (entry) judged.push({ index: entry.index, row, verdict: EXHAUSTED });
        }
        const ended = new Map((await this.end(runner, judged)).map((row) => [row.id, row]));
        for (const entry of judged) entry.row = ended.get(entry.row.id) ?? entry.row;
        // Another check ended these first: final, so nothing left to check (404 below).
        judged = judged.filter(({ row, verdict }) => !verdict.end || ended.has(row.id));
      });
    for (const { index, row, verdict } of judged) checks[index].answer = answerOf(verdict, row);
    for (const { check, index } of now)
      if (!check.answer) failures[index] = new AppError(VerifyErrors.VerificationNotFound);
  }

  private pendingOf(runner: SqlRunner, checks: WaitingCheck[]) {
    if (checks.length === 0) return Promise.resolve([]);
    return this.repository.pendingOf(
      runner,
      checks.map((check) => ({ workspaceId: check.workspaceId, key: check.key })),
    );
  }

  /** Ends the verifications the verdicts end, with `verify.verification.verified` for matches. */
  private async end(
    runner: SqlRunner,
    judged: Array<{ row: VerificationRow; verdict: CheckVerdict }>,
  ): Promise<VerificationRow[]> {
    const ends = judged.flatMap(({ row, verdict }) =>
      verdict.end ? [{ id: row.id, ...verdict.end }] : [],
    );
    const ended = await this.repository.finishMany(runner, ends);
    const matched = new Map(judged.map(({ row, verdict }) => [row.id, verdict.matchedAttempt]));
    const now = new Date();
    const events: OutboxEvent[] = [];
    for (const row of ended.filter((one) => one.status === 'verified')) {
      const attempt = matched.get(row.id);
      const channel = attempt
        ? await this.attempts.channelOf(runner, row.workspace_id, attempt)
        : undefined;
      events.push(
        verifyEvent('verify.verification.verified', row, now, {
          status: 'verified',
          channel: channel ?? row.last_channel,
          verified_at: now.toISOString(),
        }),
      );
    }
    await this.repository.events(runner, events);
    return ended;
  }
}
