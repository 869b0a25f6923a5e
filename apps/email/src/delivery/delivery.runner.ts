import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { foregroundPriority } from '@switchboard/platform';
import { inPgTransaction, pgPoolOf, poolRunner } from '@switchboard/persistence';
import {
  completeJobs,
  enqueueJobs,
  forEachJob,
  holdJobs,
  wakeQueue,
  wakeRelay,
  WorkQueue,
} from '@switchboard/background';
import type { SqlRunner } from '@switchboard/persistence';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { PROCESS_QUEUE } from '../messages';
import { AttemptRecorder } from './attempt-recorder';
import { DeliveryService } from './delivery.service';
import type { PreparedMail } from './delivery.service';
import { ProcessingService } from './processing.service';

/** The queue of delivery attempts (fanned-out destinations and retries). */
export const DELIVER_QUEUE = 'email.deliver';

/** A processing job names the message; a delivery job (or a retry) also its recipients. */
export interface SendPayload {
  message_id: string;
  recipient_ids?: string[];
}

/**
 * Most jobs one handler call takes: its SQL is a fixed number of statements for all of them,
 * while each message's SMTP conversation runs on its own.
 */
const BATCH_SIZE = 16;

/**
 * Runs the email queues while the service is up: processing (rules, content, fan-out per
 * destination) and delivery (SMTP, outcomes, retries), a claimed batch of jobs at a time. Jobs
 * live in Postgres, so whatever was accepted survives a crash: a dead worker's lease runs out
 * and another takes its jobs. Both queues yield to requests (`foregroundPriority`): while sends
 * keep the event loop busy they take fewer jobs, so accepting stays fast and delivery catches up
 * after (ADR 9).
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryRunner.name);
  private readonly pool: Pool;
  private readonly reads: SqlRunner;
  private readonly recorder: AttemptRecorder;
  private workers: WorkQueueWorker[] = [];

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') dataSource: DataSource,
    private readonly processing: ProcessingService,
    private readonly delivery: DeliveryService,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.reads = poolRunner(dataSource);
    this.recorder = new AttemptRecorder(this.pool, delivery, this.logger);
  }

  onApplicationBootstrap(): void {
    const queue = new WorkQueue(this.pool, 'email');
    const leaseMs = this.config.EMAIL_JOB_LEASE_SECONDS * 1000;
    const concurrency = this.config.EMAIL_DELIVERY_CONCURRENCY;
    const batchSize = Math.min(BATCH_SIZE, concurrency);
    this.workers = [
      queue.start<SendPayload>({
        queue: PROCESS_QUEUE,
        concurrency,
        batchSize,
        leaseMs,
        // Scheduled sends are not announced (no NOTIFY for a job due later): a look every
        // second keeps them within a second of their time.
        pollMs: 1000,
        priority: foregroundPriority,
        handleBatch: (jobs) => this.process(jobs),
      }),
      queue.start<SendPayload>({
        queue: DELIVER_QUEUE,
        concurrency,
        batchSize,
        leaseMs,
        priority: foregroundPriority,
        handleBatch: (jobs) => this.deliver(jobs),
      }),
    ];
  }

  /** Workers stop first: the transport closes after them, at onApplicationShutdown. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }

  /**
   * Processes the batch's messages in one transaction, then delivers each message whose
   * recipients all go to one destination (the relay, or one domain: the common case, no second
   * job) at once; several destinations are fanned out as delivery jobs. A retry of a job
   * (`recipient_ids` set) or a rerun after a crash past processing goes straight to delivery.
   */
  private async process(jobs: Job<SendPayload>[]): Promise<void> {
    const fresh = jobs.filter((job) => !job.payload.recipient_ids);
    const sends: Array<{ job: Job<SendPayload>; prepared?: PreparedMail }> = jobs
      .filter((job) => job.payload.recipient_ids)
      .map((job) => ({ job }));
    if (fresh.length > 0) {
      const { inline, fannedOut } = await inPgTransaction(this.pool, async (manager) => {
        const held = await holdJobs(manager, fresh);
        const processed = await this.processing.process(
          manager,
          held.map((job) => job.payload.message_id),
        );
        const now: Array<{ job: Job<SendPayload>; prepared?: PreparedMail }> = [];
        const settled: Job<SendPayload>[] = [];
        const fanOut: Array<{ queue: string; payload: SendPayload }> = [];
        for (const job of held) {
          const messageId = job.payload.message_id;
          const result = processed.get(messageId);
          // Processed before (a crashed run), canceled or gone: deliver whatever is pending.
          if (!result) now.push({ job });
          else if (result.outgoing.size === 1) now.push({ job, prepared: result.prepared });
          else {
            settled.push(job);
            for (const ids of result.outgoing.values())
              fanOut.push({
                queue: DELIVER_QUEUE,
                payload: { message_id: messageId, recipient_ids: ids },
              });
          }
        }
        await enqueueJobs(manager, 'email', fanOut);
        await completeJobs(manager, settled);
        return { inline: now, fannedOut: fanOut.length > 0 };
      });
      wakeRelay(this.pool, 'email');
      if (fannedOut) wakeQueue(this.pool, 'email', DELIVER_QUEUE);
      sends.push(...inline);
    }
    await this.send(sends);
  }

  /** One attempt for each job's recipients. */
  private deliver(jobs: Job<SendPayload>[]): Promise<void> {
    return this.send(jobs.map((job) => ({ job })));
  }

  /**
   * Reads what the jobs without a prepared mail send (one batch of queries), sends each mail on
   * its own, and hands every attempt to the recorder as it finishes.
   */
  private async send(sends: Array<{ job: Job<SendPayload>; prepared?: PreparedMail }>) {
    const unread = sends.filter((send) => !send.prepared);
    const read = await this.delivery.read(
      this.reads,
      unread.map(({ job }) => ({
        messageId: job.payload.message_id,
        recipientIds: job.payload.recipient_ids,
      })),
    );
    unread.forEach((send, index) => (send.prepared = read[index]));
    await forEachJob(sends, async ({ job, prepared }) => {
      const attempt = prepared && (await this.delivery.attempt(prepared));
      if (this.delivery.stopping) {
        // The process is shutting down under the attempt: nothing was learnt about the mail.
        // The job goes back as it was, for this process after a restart or another replica.
        return inPgTransaction(this.pool, (manager) => job.retryAt(manager, new Date()));
      }
      await this.recorder.record(job, attempt);
      // Its slot takes another job now: a slow destination in the batch would otherwise hold
      // every slot of it until that conversation ends (ADR 23).
      job.done();
    });
  }
}
