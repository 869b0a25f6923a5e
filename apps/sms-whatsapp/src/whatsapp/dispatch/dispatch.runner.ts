import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WhatsAppError } from '@switchboard/contracts';
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
import { inPgTransaction, pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { foregroundPriority, KeyedSemaphore } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { stoppedByPreferences } from '../../preferences';
import { phonesOfBsuids } from '../messages/known-phones.repository';
import { WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { GraphMessageBody, WhatsAppGraph } from '../graph/whatsapp-graph';
import {
  DISPATCH_QUEUE,
  eventSubjectOf,
  isTransactional,
  suppressedError,
  whatsappEvent,
} from '../messages';
import type { DispatchPayload, WhatsAppEventRecord } from '../messages';
import { dispatchFailure } from './dispatch-failure';
import { DispatchRepository } from './dispatch.repository';
import type { DispatchRow, FailedRecord, SentRecord } from './dispatch.repository';

const BATCH_SIZE = 16;
const CONCURRENCY = 64;
const LEASE_MS = 60_000;
/** Graph calls in flight per number (Meta's throughput is per number; the client paces it). */
const PER_NUMBER = 16;

type DispatchJob = Job<DispatchPayload>;
type Outcome =
  | { job: DispatchJob; row: DispatchRow; wamid: string; at: Date }
  /** `suppressed`: refused before Meta saw it, so `rejected` rather than `failed`. */
  | { job: DispatchJob; row: DispatchRow; failed: WhatsAppError; at: Date; suppressed?: true }
  | { job: DispatchJob; row: DispatchRow; retryInMs: number; reason: string; at: Date }
  /** A job whose message needs nothing (already dispatched by a run before a crash, or gone). */
  | { job: DispatchJob; skipped: true };

/**
 * Hands accepted WhatsApp messages to Meta: a claimed batch is read in one query, each message
 * is sent (in parallel, bounded per number) with the Graph body built when it was accepted, and
 * each outcome is recorded as soon as it is known, with whatever other outcomes are waiting, in
 * one statement that also completes the jobs (group commit): `sent` with Meta's wamid, `failed`
 * with Meta's code normalised, or, for a temporary failure (429, 5xx, Meta unreachable), the job
 * again later with back-off. The wamid is stored in the step that deletes the job, so a message
 * Meta took is never sent again, save for a crash between Meta's answer and that commit.
 *
 * Free-form content is checked against the service window again: one that closed since the send
 * was accepted fails with `service_window_expired` without a Graph call Meta would refuse.
 */
@Injectable()
export class WhatsAppDispatchRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WhatsAppDispatchRunner.name);
  private readonly pool: Pool;
  private readonly autocommit: SqlRunner;
  private worker?: WorkQueueWorker;
  private readonly perNumber = new KeyedSemaphore(PER_NUMBER);
  private readonly recorder = new CommitBatcher<Outcome>((outcomes) => this.record(outcomes));

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: DispatchRepository,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.autocommit = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<DispatchPayload>({
      queue: DISPATCH_QUEUE,
      concurrency: CONCURRENCY,
      batchSize: BATCH_SIZE,
      leaseMs: LEASE_MS,
      priority: foregroundPriority,
      handleBatch: (jobs) => this.dispatch(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async dispatch(jobs: DispatchJob[]): Promise<void> {
    const ids = jobs.map((job) => job.payload.message_id);
    const rows = new Map(
      (await this.repository.messages(this.autocommit, ids)).map((row) => [row.id, row]),
    );
    const stopped = await this.stopped([...rows.values()]);
    await forEachJob(jobs, async (job) => {
      const row = rows.get(job.payload.message_id);
      if (row?.status !== 'accepted') return this.recorder.add({ job, skipped: true });
      if (stopped.has(row.id)) return this.recorder.add(suppressedOutcome(job, row));
      const outcome = await this.perNumber.use(row.phone_number_id, () => this.sendOne(job, row));
      return this.recordDurably(outcome);
    });
  }

  /**
   * The accepted messages their recipient's preferences stop now (ADR 14, as the accept checks
   * them): a revoke that came while they waited is honoured before Meta sees them. A recipient
   * named by a business-scoped user id is checked by the phone number it was last seen with.
   * Two reads per batch at most.
   */
  private async stopped(rows: DispatchRow[]): Promise<Set<string>> {
    if (!this.config.PREFERENCES_ENFORCEMENT) return new Set();
    const accepted = rows.filter((row) => row.status === 'accepted');
    const phones = await phonesOfBsuids(
      this.autocommit,
      accepted.flatMap((row) =>
        !row.contact_phone && row.contact_bsuid
          ? [{ workspaceId: row.workspace_id, bsuid: row.contact_bsuid }]
          : [],
      ),
    );
    const waiting = accepted.flatMap((row) => {
      const phone =
        row.contact_phone ?? phones.get(`${row.workspace_id} ${row.contact_bsuid ?? ''}`);
      return phone ? [{ row, phone }] : [];
    });
    const stopped = await stoppedByPreferences(
      this.autocommit,
      waiting.map(({ row, phone }) => ({
        workspaceId: row.workspace_id,
        channel: 'whatsapp',
        handle: phone,
        senderScope: row.waba,
        transactional: isTransactional(row),
      })),
    );
    return new Set([...stopped].map((index) => waiting[index].row.id));
  }

  /**
   * A message Meta took (it has a wamid) is never sent again because recording it failed once:
   * its outcome is recorded again while the job's lease lasts. Other outcomes fail the job, which
   * the queue retries.
   */
  private recordDurably(outcome: Outcome): Promise<void> {
    return this.recorder.addPersistently(outcome, (err) => {
      if (!('wamid' in outcome) || err instanceof JobLeaseLostError) return false;
      this.logger.warn(
        `recording ${outcome.row.id} as sent failed (${(err as Error).message}); trying again`,
      );
      return true;
    });
  }

  private async sendOne(job: DispatchJob, row: DispatchRow): Promise<Outcome> {
    const refuse = (code: string, description: string): Outcome => {
      const at = new Date();
      const failed = { code, description, meta_error_code: null, occurred_at: at.toISOString() };
      return { job, row, failed, at };
    };
    if (!row.number_connected)
      return refuse(
        'undeliverable',
        `${row.business_phone} is no longer a connected number of this workspace`,
      );
    if (row.content_kind !== 'template' && !row.window_open)
      return refuse(
        'service_window_expired',
        'The 24-hour service window closed before the message was sent; send a template.',
      );
    try {
      const body = job.payload.graph as GraphMessageBody;
      const { messageId } = await this.graph.sendMessage(row.phone_number_id, body);
      return { job, row, wamid: messageId, at: new Date() };
    } catch (err) {
      const at = new Date();
      const failure = dispatchFailure(err, new Date(row.created_at), at, job.attempts);
      if ('error' in failure) return { job, row, failed: failure.error, at };
      return { job, row, retryInMs: failure.retryInMs, reason: (err as Error).message, at };
    }
  }

  /** The outcomes of one group commit, whichever batches they came from. */
  private async record(outcomes: Outcome[]): Promise<void> {
    const sent: SentRecord[] = [];
    const failed: FailedRecord[] = [];
    const events: WhatsAppEventRecord[] = [];
    const finished: DispatchJob[] = [];
    const retries: Array<{ job: DispatchJob; at: Date }> = [];
    for (const outcome of outcomes) {
      if ('skipped' in outcome) {
        finished.push(outcome.job);
      } else if ('wamid' in outcome) {
        sent.push({ id: outcome.row.id, wamid: outcome.wamid, at: outcome.at });
        events.push(whatsappEvent('whatsapp.sent', eventSubjectOf(outcome.row), outcome.at));
        finished.push(outcome.job);
      } else if ('failed' in outcome) {
        const status = outcome.suppressed ? 'rejected' : 'failed';
        failed.push({ id: outcome.row.id, status, error: outcome.failed, at: outcome.at });
        events.push(
          whatsappEvent(`whatsapp.${status}`, eventSubjectOf(outcome.row), outcome.at, {
            error: outcome.failed,
          }),
        );
        finished.push(outcome.job);
      } else {
        retries.push({ job: outcome.job, at: new Date(outcome.at.getTime() + outcome.retryInMs) });
        this.logger.warn(
          `dispatch of ${outcome.row.id} refused for now (${outcome.reason}); retrying in ${outcome.retryInMs} ms`,
        );
      }
    }
    if (retries.length === 0) {
      // The common case, every job settled: the outcomes and the jobs' completion in one
      // statement in autocommit, one round trip.
      const deleted = await this.repository.recordCompleting(
        this.autocommit,
        jobFences(finished),
        sent,
        failed,
        events,
      );
      markCompleted(finished, deleted);
    } else {
      await inPgTransaction(this.pool, async (tx) => {
        // A job another worker took over (this one's lease ran out) is left to it, unrecorded.
        const held = new Set(
          await holdJobs(
            tx,
            outcomes.map((outcome) => outcome.job),
          ),
        );
        const ours = new Set([...held].map((job) => job.payload.message_id));
        await this.repository.record(
          tx,
          sent.filter((record) => ours.has(record.id)),
          failed.filter((record) => ours.has(record.id)),
          events.filter((event) => ours.has(event.messageId)),
        );
        await completeJobs(
          tx,
          finished.filter((job) => held.has(job)),
        );
        for (const retry of retries) if (held.has(retry.job)) await retry.job.retryAt(tx, retry.at);
      });
    }
    if (events.length > 0) wakeRelay(this.pool, 'sms_whatsapp');
  }
}

/** A message its recipient's preferences stop: `rejected` with `recipient_suppressed`. */
function suppressedOutcome(job: DispatchJob, row: DispatchRow): Outcome {
  const at = new Date();
  const failed = suppressedError(
    { phone: row.contact_phone, category: row.category, businessAccount: row.waba },
    at,
  );
  return { job, row, failed, at, suppressed: true };
}
