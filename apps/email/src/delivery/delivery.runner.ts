import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  enqueueJobs,
  inPgTransaction,
  pgPoolOf,
  poolRunner,
  WorkQueue,
} from '@switchboard/persistence';
import type { Job, SqlRunner, WorkQueueWorker } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { PROCESS_QUEUE } from '../messages/accept/accept.repository';
import { DeliverMessageWorker } from './deliver-message.worker';
import type { PreparedMail } from './deliver-message.worker';
import { DELIVER_QUEUE, ProcessMessageWorker } from './process-message.worker';

/** A processing job names the message; a delivery job (or a retry) also its recipients. */
interface SendPayload {
  message_id: string;
  recipient_ids?: string[];
}

/**
 * Runs the email queues while the service is up: processing (rules, content, fan-out per
 * destination) and delivery (SMTP, outcomes, retries). Jobs live in Postgres, so whatever was
 * accepted survives a crash: a dead worker's lease runs out and another takes its jobs.
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryRunner.name);
  private readonly pool: Pool;
  private readonly reads: SqlRunner;
  private workers: WorkQueueWorker[] = [];

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') private readonly dataSource: DataSource,
    private readonly processing: ProcessMessageWorker,
    private readonly delivery: DeliverMessageWorker,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.reads = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    const queue = new WorkQueue(this.pool, 'email');
    const leaseMs = this.config.EMAIL_JOB_LEASE_SECONDS * 1000;
    this.workers = [
      queue.start<SendPayload>({
        queue: PROCESS_QUEUE,
        concurrency: this.config.EMAIL_DELIVERY_CONCURRENCY,
        leaseMs,
        // Scheduled sends are not announced (no NOTIFY for a job due later): a look every
        // second keeps them within a second of their time.
        pollMs: 1000,
        handle: (job) => this.process(job),
      }),
      queue.start<SendPayload>({
        queue: DELIVER_QUEUE,
        concurrency: this.config.EMAIL_DELIVERY_CONCURRENCY,
        leaseMs,
        handle: (job) => this.deliver(job),
      }),
    ];
  }

  /** Workers stop first: the transport closes after them, at onApplicationShutdown. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }

  /**
   * Processes the message, then delivers it in the same job when all its recipients go to one
   * destination (the relay, or one domain: the common case, one claim and no second job); several
   * destinations are fanned out as delivery jobs. A retry of the job (`recipient_ids` set) or a
   * rerun after a crash past processing goes straight to delivery.
   */
  private async process(job: Job<SendPayload>): Promise<void> {
    const { message_id: messageId } = job.payload;
    if (job.payload.recipient_ids) return this.deliver(job);
    const plan = await inPgTransaction(this.pool, async (manager) => {
      await job.hold(manager);
      const processed = await this.processing.process(manager, messageId);
      if (processed === undefined) return 'deliver-pending';
      const { outgoing, prepared } = processed;
      if (outgoing.size === 1) return prepared;
      await enqueueJobs(
        manager,
        'email',
        [...outgoing.values()].map((ids) => ({
          queue: DELIVER_QUEUE,
          payload: { message_id: messageId, recipient_ids: ids },
        })),
      );
      await job.complete(manager);
      return 'fanned-out';
    });
    if (plan !== 'fanned-out')
      await this.deliver(job, plan === 'deliver-pending' ? undefined : plan);
  }

  /** One attempt for the job's recipients (all the message's pending ones when it names none). */
  private async deliver(job: Job<SendPayload>, prepared?: PreparedMail): Promise<void> {
    const { message_id: messageId, recipient_ids: recipientIds } = job.payload;
    const attempt = await this.delivery.attempt(this.reads, messageId, recipientIds, prepared);
    if (this.delivery.stopping) {
      // The process is shutting down under the attempt: nothing was learnt about the mail. The
      // job goes back as it was, for this process after a restart or for another replica.
      return inPgTransaction(this.pool, (manager) => job.retryAt(manager, new Date()));
    }
    await inPgTransaction(this.pool, async (manager) => {
      if (!attempt) return job.complete(manager);
      const outcome = await this.delivery.record(manager, attempt);
      if (outcome.done) return job.complete(manager);
      this.logger.debug(
        `${messageId}: ${outcome.recipientIds.length} deferred until ${outcome.retryAt.toISOString()}`,
      );
      return job.retryAt(manager, outcome.retryAt, {
        message_id: messageId,
        recipient_ids: outcome.recipientIds,
      });
    });
  }
}
