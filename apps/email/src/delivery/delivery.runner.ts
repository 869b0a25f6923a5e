import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WorkQueue } from '@switchboard/persistence';
import type { Job, SqlRunner, WorkQueueWorker } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { PROCESS_QUEUE } from '../messages/accept/accept.repository';
import { DeliverMessageWorker } from './deliver-message.worker';
import { DELIVER_QUEUE, ProcessMessageWorker } from './process-message.worker';

interface DeliverPayload {
  message_id: string;
  recipient_ids: string[];
}

/**
 * Runs the email queues while the service is up: processing (rules, content, fan-out per
 * destination) and delivery (SMTP, outcomes, retries). Jobs live in Postgres, so whatever was
 * accepted survives a crash: a dead worker's lease runs out and another takes its jobs.
 */
@Injectable()
export class DeliveryRunner implements OnApplicationBootstrap, OnApplicationShutdown {
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
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
    this.reads = {
      query: async (sql, params) =>
        (await this.pool.query<Record<string, unknown>>(sql, params)).rows,
    };
  }

  onApplicationBootstrap(): void {
    const queue = new WorkQueue(this.pool, 'email');
    const leaseMs = this.config.EMAIL_JOB_LEASE_SECONDS * 1000;
    this.workers = [
      queue.start<{ message_id: string }>({
        queue: PROCESS_QUEUE,
        concurrency: 8,
        leaseMs,
        handle: (job) => this.process(job),
      }),
      queue.start<DeliverPayload>({
        queue: DELIVER_QUEUE,
        concurrency: this.config.EMAIL_DELIVERY_CONCURRENCY,
        leaseMs,
        handle: (job) => this.deliver(job),
      }),
    ];
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }

  private process(job: Job<{ message_id: string }>): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await job.complete(manager);
      await this.processing.process(
        manager,
        job.payload.message_id,
        this.config.EMAIL_CONTENT_RETENTION_DAYS,
      );
    });
  }

  private async deliver(job: Job<DeliverPayload>): Promise<void> {
    const { message_id: messageId, recipient_ids: recipientIds } = job.payload;
    const attempt = await this.delivery.attempt(this.reads, messageId, recipientIds);
    await this.dataSource.transaction(async (manager) => {
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
