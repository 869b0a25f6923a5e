import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { encodeSms, measureSms } from '@switchboard/contracts';
import {
  CommitBatcher,
  completeJobs,
  forEachJob,
  holdJobs,
  jobFences,
  JobLeaseLostError,
  markCompleted,
  wakeRelay,
  WorkQueue,
} from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf, preparedRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { foregroundPriority, Semaphore } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { carrierMessageIdKey } from '../carriers/delivery-receipt';
import { CarrierSubmitError, SMS_CARRIERS } from '../carriers/sms-carrier';
import type { SmsCarriers, SubmitOutcome } from '../carriers/sms-carrier';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { AcceptRepository, optOutError, smsEvent, smsSubjectOf, SUBMIT_QUEUE } from '../messages';
import type { SmsEventRecord } from '../messages';
import { SenderPacing } from './sender-pacing';
import { submitFailure } from './submit-failure';
import { SubmitRepository } from './submit.repository';
import type { FailedRecord, SentRecord, SubmitRow } from './submit.repository';

const BATCH_SIZE = 16;
const CONCURRENCY = 64;
const LEASE_MS = 60_000;
/** Turns without any carrier that caps its senders: none to take, in any order. */
const IN_ANY_ORDER = { ready: Promise.resolve(), taken: () => undefined };
/** A sender's turn this close is waited for in memory; a later one, back in the queue. */
const PACE_HOLD_MS = 1000;

interface SubmitPayload {
  message_id: string;
  keyword_reply?: boolean;
  /** The one a keyword's reply goes back through (its message came in on it). */
  carrier?: string;
  /** Its sender's turn (ISO 8601), when it was put back to wait for it. */
  paced_at?: string;
  /** How many times it was put back so (claims that were not tries). */
  paced?: number;
}
type SubmitJob = Job<SubmitPayload>;
type Outcome =
  /** Its sender's turn is further off than PACE_HOLD_MS: back in the queue until then. */
  | { job: SubmitJob; pacedUntil: Date }
  | { job: SubmitJob; row: SubmitRow; sent: SubmitOutcome; at: Date }
  | { job: SubmitJob; row: SubmitRow; failed: CarrierSubmitError; at: Date }
  /**
   * Refused before any carrier saw it (`rejected`): opted out or stopped by a preference since
   * it was accepted, or its sender no longer the workspace's.
   */
  | { job: SubmitJob; row: SubmitRow; rejected: { code: string; description: string }; at: Date }
  /** A job whose message needs nothing (already handed over by a run before a crash, or gone). */
  | { job: SubmitJob; skipped: true };

/**
 * Hands accepted messages to the carriers: a claimed batch is encoded (its parts with an 8-bit
 * concatenation reference of their own) and submitted message by message, and each outcome is
 * recorded as soon as it is known, with whatever other outcomes are waiting, in one transaction
 * (group commit): `sent` with its carrier ids, `failed` with the carrier's code, or, for a
 * temporary refusal (a bind down, a throttle that outlasted the carrier layer), the job again
 * later with back-off, until a day has passed (`submitFailure`) fails it as `provider_unavailable`.
 *
 * A message holds one of its carrier's `slots` (as many as that carrier's window) from its
 * submit to the commit of its outcome: at any moment at most a window's worth of messages per
 * carrier are answered and not yet recorded, which bounds what a crash can make the restarted
 * service submit again; and a carrier that is away holds only its own slots. On a carrier that
 * caps each sender (`sender_tps`), a message takes a slot only once its sender's turn has come
 * (`SenderPacing`), so a sender with a backlog does not hold the window from the others.
 */
@Injectable()
export class SubmitRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SubmitRunner.name);
  private readonly pool: Pool;
  /** Statements that commit on their own (the reads, the one-statement record), prepared. */
  private readonly autocommit: SqlRunner;
  private worker?: WorkQueueWorker;
  /** Per carrier, as many as its window: a carrier away holds its own slots, never another's. */
  private readonly slots: Map<string, Semaphore>;
  private readonly recorder = new CommitBatcher<Outcome>((outcomes) => this.record(outcomes));
  private readonly pacing: SenderPacing;
  private readonly anyPaced: boolean;
  /** Settles once the latest batch has taken its senders' turns (`turnsInOrder`). */
  private lastTurns: Promise<void> = Promise.resolve();

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: SubmitRepository,
    @Inject(SMS_CARRIERS) private readonly carriers: SmsCarriers,
    private readonly accepts: AcceptRepository,
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.autocommit = preparedRunner(this.pool);
    const binds = carriers.binds();
    this.slots = new Map(binds.map((bind) => [bind.carrier, new Semaphore(bind.window)]));
    const senderTps = new Map(binds.map((bind) => [bind.carrier, bind.senderTps]));
    this.pacing = new SenderPacing((carrier) => senderTps.get(carrier));
    this.anyPaced = binds.some((bind) => bind.senderTps);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<SubmitPayload>({
      queue: SUBMIT_QUEUE,
      concurrency: CONCURRENCY,
      batchSize: BATCH_SIZE,
      leaseMs: LEASE_MS,
      priority: foregroundPriority,
      handleBatch: (jobs) => this.submit(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async submit(jobs: SubmitJob[]): Promise<void> {
    // Batches of one claim run at once; their senders' turns go out in the claim's order.
    const turns = this.turnsInOrder();
    try {
      const rows = new Map(
        (
          await this.repository.messages(
            this.autocommit,
            jobs.map((job) => job.payload.message_id),
          )
        ).map((row) => [row.id, row]),
      );
      const replies = new Set(
        jobs.filter((job) => job.payload.keyword_reply).map((job) => job.payload.message_id),
      );
      const optedOut = await this.optedOut(
        [...rows.values()].filter((row) => !replies.has(row.id)),
      );
      await turns.ready;
      const submitted = forEachJob(jobs, (job) => {
        const row = rows.get(job.payload.message_id);
        if (row?.status !== 'accepted') return this.recorder.add({ job, skipped: true });
        const stop = optedOut.get(row.id);
        if (stop) {
          const at = new Date();
          const rejected = optOutError(
            { to: row.to_address, from: row.from_address, category: row.category },
            stop,
            at,
          );
          return this.recorder.add({ job, row, rejected, at });
        }
        return this.submitInTurn(job, row);
      });
      turns.taken();
      await submitted;
    } finally {
      turns.taken();
    }
  }

  /**
   * Submits through the message's carrier: once its sender's turn has come and it has a place of
   * its own there (a carrier with `sender_tps`), then a slot of the carrier's window. A turn more
   * than PACE_HOLD_MS away puts the message back in the queue, once: a message already put back
   * waits for what is left of its turn (the database's clock ahead of this one).
   */
  private submitInTurn(job: SubmitJob, row: SubmitRow): Promise<void> {
    const submit = async () => this.recordDurably(await this.submitOne(job, row));
    const carrier = this.carriers.carrierOf(row.to_address, job.payload.carrier);
    const slots = carrier ? this.slots.get(carrier) : undefined;
    // A message no carrier routes, or whose sender is gone, takes no slot: it ends at once.
    if (!carrier || !slots || !row.sender_held) return submit();
    if (!this.pacing.paces(carrier)) return slots.use(submit);
    const wait = this.turnOf(carrier, job, row) - Date.now();
    if (wait > PACE_HOLD_MS && !job.payload.paced_at)
      return this.recorder.add({ job, pacedUntil: new Date(Date.now() + wait) });
    const go = () => this.pacing.withPlace(carrier, row.from_address, () => slots.use(submit));
    if (wait <= 0) return go();
    return new Promise((resolve) => setTimeout(resolve, wait)).then(go);
  }

  /** A place in the order of turns: `ready` once the batches before have taken theirs. */
  private turnsInOrder(): { ready: Promise<void>; taken: () => void } {
    if (!this.anyPaced) return IN_ANY_ORDER;
    const ready = this.lastTurns;
    let taken = () => undefined as void;
    this.lastTurns = new Promise<void>((resolve) => (taken = resolve));
    return { ready, taken };
  }

  /**
   * When the message may go, as its sender's cap on its carrier allows. A message put back for
   * its turn and then tried again after a failure keeps that turn, now past: it goes at once,
   * ahead of later turns, and the bind's own cap spaces it from them. So does a message that cannot wait behind a backlog: a
   * keyword's reply (a STOP's confirmation is due within minutes) or a one-time passcode.
   */
  private turnOf(carrier: string, job: SubmitJob, row: SubmitRow): number {
    const urgent = job.payload.keyword_reply === true || row.category === 'authentication';
    const { paced_at: turn } = job.payload;
    const parts = measureSms(row.text).count;
    return this.pacing.startOf(
      carrier,
      row.from_address,
      parts,
      urgent ? Date.now() : turn ? Date.parse(turn) : undefined,
    );
  }

  /**
   * The accepted messages an opt-out or a preference stops now: a STOP (or a revoke) that came
   * while they waited (a carrier down for hours) is honoured before the carrier sees them.
   * The accept's own read, once per batch; a keyword's reply is not asked about.
   */
  private async optedOut(rows: SubmitRow[]): Promise<Map<string, 'suppression' | 'preference'>> {
    const accepted = rows.filter((row) => row.status === 'accepted');
    const found = await this.accepts.optOutsAmong(
      this.autocommit,
      accepted.map((row) => ({
        workspaceId: row.workspace_id,
        from: row.from_address,
        to: row.to_address,
        category: row.category,
      })),
      this.config.PREFERENCES_ENFORCEMENT,
    );
    return new Map([...found].map(([index, kind]) => [accepted[index].id, kind]));
  }

  /**
   * A message the carrier took is never submitted again because recording it failed once: its
   * outcome is recorded again while the job's lease lasts. Other outcomes fail the job, which the
   * queue retries.
   */
  private recordDurably(outcome: Outcome): Promise<void> {
    return this.recorder.addPersistently(outcome, (err) => {
      if (!('sent' in outcome) || err instanceof JobLeaseLostError) return false;
      this.logger.warn(
        `recording ${outcome.row.id} as sent failed (${(err as Error).message}); trying again`,
      );
      return true;
    });
  }

  private async submitOne(job: SubmitJob, row: SubmitRow): Promise<Outcome> {
    if (!row.sender_held) {
      // Released or unregistered since it was accepted: another workspace may hold the number
      // now, and what it sends must not go out as theirs (nor their replies come back to it).
      const rejected = {
        code: 'sender_unregistered',
        description: `${row.from_address} is no longer a sender of this workspace`,
      };
      return { job, row, rejected, at: new Date() };
    }
    try {
      const encoded = encodeSms(row.text, { reference: concatenationReference(row.id) });
      const sent = await this.carriers.submit({
        messageId: row.id,
        from: row.from_address,
        to: row.to_address,
        dataCoding: encoded.dataCoding,
        parts: encoded.parts,
        ...(job.payload.carrier ? { carrier: job.payload.carrier } : {}),
      });
      return { job, row, sent, at: new Date() };
    } catch (err) {
      const failed =
        err instanceof CarrierSubmitError
          ? err
          : new CarrierSubmitError((err as Error).message, true, 'provider_unavailable');
      return { job, row, failed, at: new Date() };
    }
  }

  /** The outcomes of one group commit, whichever batches they came from. */
  private async record(outcomes: Outcome[]): Promise<void> {
    const jobs = outcomes.map((outcome) => outcome.job);
    const sent: SentRecord[] = [];
    const failed: FailedRecord[] = [];
    const events: SmsEventRecord[] = [];
    const finished = new Set<SubmitJob>();
    const retries: Array<{ job: SubmitJob; at: Date; payload?: SubmitPayload }> = [];
    for (const outcome of outcomes) {
      if ('skipped' in outcome) {
        finished.add(outcome.job);
        continue;
      }
      if ('pacedUntil' in outcome) {
        const { job, pacedUntil } = outcome;
        const paced = (job.payload.paced ?? 0) + 1;
        const payload = { ...job.payload, paced_at: pacedUntil.toISOString(), paced };
        retries.push({ job, at: pacedUntil, payload });
        continue;
      }
      const { job, row, at } = outcome;
      const subject = smsSubjectOf(row);
      if ('rejected' in outcome) {
        const error = {
          code: outcome.rejected.code,
          description: outcome.rejected.description,
          carrier_error_code: null,
          occurred_at: at.toISOString(),
        };
        failed.push({
          id: row.id,
          status: 'rejected',
          code: error.code,
          description: error.description,
          carrier_code: null,
          at,
        });
        events.push(smsEvent('sms.rejected', subject, at, { error }));
        finished.add(job);
        continue;
      }
      if ('sent' in outcome) {
        const { carrier, carrierMessageIds } = outcome.sent;
        sent.push({
          id: row.id,
          carrier,
          sentAt: at,
          workspaceId: row.workspace_id,
          parts: carrierMessageIds.map((id, index) => ({
            index,
            carrierMessageId: id,
            key: carrierMessageIdKey(id),
          })),
        });
        events.push(smsEvent('sms.sent', subject, at, { carrier }));
        finished.add(job);
        continue;
      }
      // Claims that only put the message back for its sender's turn were not tries.
      const tries = job.attempts - (job.payload.paced ?? 0);
      const failure = submitFailure(outcome.failed, new Date(row.created_at), at, tries);
      if ('retryInMs' in failure) {
        retries.push({ job, at: new Date(at.getTime() + failure.retryInMs) });
        this.logger.warn(
          `submit of ${row.id} refused for now (${outcome.failed.message}); retrying in ${failure.retryInMs} ms`,
        );
        continue;
      }
      const { error } = failure;
      failed.push({
        id: row.id,
        status: 'failed',
        code: error.code,
        description: error.description,
        carrier_code: error.carrier_error_code ?? null,
        at,
      });
      events.push(
        smsEvent('sms.failed', subject, at, { carrier: outcome.failed.carrier ?? null, error }),
      );
      finished.add(job);
    }
    if (retries.length === 0) {
      // The common case, every job settled: the outcomes and the jobs' completion in one
      // statement in autocommit, one round trip (a slot waits for this commit).
      const deleted = await this.repository.recordCompleting(
        this.autocommit,
        jobFences([...finished]),
        sent,
        failed,
        events,
      );
      markCompleted([...finished], deleted);
      if (events.length > 0) wakeRelay(this.pool, 'sms_whatsapp');
      return;
    }
    await inPgTransaction(this.pool, async (tx) => {
      // A job another worker took over (this one's lease ran out) is left to it, unrecorded.
      const held = new Set(await holdJobs(tx, jobs));
      const ours = new Set([...held].map((job) => job.payload.message_id));
      await this.repository.record(
        tx,
        sent.filter((record) => ours.has(record.id)),
        failed.filter((record) => ours.has(record.id)),
        events.filter((event) => ours.has(event.messageId)),
      );
      await completeJobs(
        tx,
        [...finished].filter((job) => held.has(job)),
      );
      for (const retry of retries)
        if (held.has(retry.job)) await retry.job.retryAt(tx, retry.at, retry.payload);
    });
    if (events.length > 0) wakeRelay(this.pool, 'sms_whatsapp');
  }
}

/**
 * The UDH reference of a message's parts: as good as random between messages, and the same on
 * every try of one message, so parts a carrier took before a failed try reassemble with the
 * retry's instead of lingering on the handset as a message that never completes.
 */
export function concatenationReference(messageId: string): number {
  return createHash('sha256').update(messageId).digest()[0];
}
