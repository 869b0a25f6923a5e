import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { completeJobs, holdJobs, wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { readWebhooks } from './webhook-changes';
import { WebhookChangesApplier } from './webhook-changes.applier';
import { WEBHOOK_INBOX_QUEUE, WebhookInboxRepository } from './webhook-inbox.repository';

type InboxJob = Job<{ inbox_id: string }>;

/** A webhook that failed this often (back-off doubling to an hour: about a day) is given up. */
const GIVE_UP_ATTEMPTS = 30;

/**
 * Processes recorded webhooks from the work queue: a claimed batch of inbox rows is read, routed
 * and applied in ONE transaction with the rows marked processed and their jobs completed, so a
 * crash anywhere leaves the batch to be applied whole by the next claim. When a batch fails each
 * webhook is tried alone, so one that cannot apply holds back only itself; it is retried with
 * back-off and, after GIVE_UP_ATTEMPTS, kept as processed with the error as its note.
 */
@Injectable()
export class WebhookProcessorRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookProcessorRunner.name);
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly inbox: WebhookInboxRepository,
    private readonly changes: WebhookChangesApplier,
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<{ inbox_id: string }>({
      queue: WEBHOOK_INBOX_QUEUE,
      concurrency: 64,
      batchSize: 64,
      leaseMs: 60_000,
      handleBatch: (jobs) => this.process(jobs),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async process(jobs: InboxJob[]): Promise<void> {
    try {
      await this.processTogether(jobs);
      return;
    } catch (err) {
      if (jobs.length === 1) return this.failedAlone(jobs[0], err);
    }
    let failure: Error | undefined;
    for (const job of jobs) {
      await this.processTogether([job]).catch((err: unknown) =>
        this.failedAlone(job, err).catch((still: unknown) => (failure ??= asError(still))),
      );
    }
    if (failure) throw failure;
  }

  private async processTogether(jobs: InboxJob[]): Promise<void> {
    const applied = await this.dataSource.transaction(async (manager) => {
      const held = await holdJobs(manager, jobs);
      if (held.length === 0) return false;
      const rows = await this.inbox.pending(
        manager,
        held.map((job) => job.payload.inbox_id),
      );
      const { changes, notes } = readWebhooks(rows);
      const note = (rowId: string, text: string) =>
        notes.set(rowId, [...(notes.get(rowId) ?? []), text]);
      const graceMs = this.config.WHATSAPP_UNKNOWN_NUMBER_GRACE_SECONDS * 1000;
      const young = new Set(
        rows
          .filter((row) => Date.now() - new Date(row.received_at).getTime() < graceMs)
          .map((row) => row.id),
      );
      await this.changes.apply(manager, changes, note, (rowId) => young.has(rowId));
      await this.inbox.markProcessed(
        manager,
        rows.map((row) => ({ id: row.id, note: notes.get(row.id)?.join('; ') ?? null })),
      );
      await completeJobs(manager, held);
      return changes.length > 0;
    });
    // The areas' events went to the outbox in that transaction.
    if (applied) wakeRelay(this.pool, 'sms_whatsapp');
  }

  /** Rethrows (the queue retries with back-off) until the webhook has failed too often. */
  private async failedAlone(job: InboxJob, err: unknown): Promise<void> {
    if (job.attempts < GIVE_UP_ATTEMPTS) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.error(
      `webhook ${job.payload.inbox_id} failed ${job.attempts} times and is given up: ${reason}`,
    );
    await this.dataSource.transaction(async (manager) => {
      const held = await holdJobs(manager, [job]);
      if (held.length === 0) return;
      await this.inbox.markProcessed(manager, [
        { id: job.payload.inbox_id, note: `given up after ${job.attempts} attempts: ${reason}` },
      ]);
      await completeJobs(manager, held);
    });
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(JSON.stringify(value));
}
