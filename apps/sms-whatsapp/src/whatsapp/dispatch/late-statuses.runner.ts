import { Injectable } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { LATE_STATUSES_QUEUE, WhatsAppStatusesRepository } from '../messages';
import type { LateStatusesPayload } from '../messages';

/** Tries before a status whose wamid matches no message is given up (about a minute in all). */
const ATTEMPTS = 6;

/**
 * Applies again the statuses Meta reported before their wamid was recorded (`MetaStatusApplier`
 * queues them): each try in one transaction with the job's completion, the rest rescheduled with
 * a growing delay until `ATTEMPTS`, then dropped as not ours (a reaction's).
 */
@Injectable()
export class LateStatusesRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly statuses: WhatsAppStatusesRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<LateStatusesPayload>({
      queue: LATE_STATUSES_QUEUE,
      concurrency: 4,
      leaseMs: 30_000,
      handle: (job) => this.apply(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async apply(job: Job<LateStatusesPayload>): Promise<void> {
    const { number_id: numberId, statuses } = job.payload;
    await inPgTransaction(this.pool, async (tx) => {
      const matched = await this.statuses.applyStatuses(tx, statuses, numberId);
      const left = statuses.filter((status) => !matched.has(status.wamid));
      if (left.length === 0 || job.attempts >= ATTEMPTS) await job.complete(tx);
      else
        await job.retryAt(tx, new Date(Date.now() + 2_000 * job.attempts), {
          number_id: numberId,
          statuses: left,
        });
    });
    wakeRelay(this.pool, 'sms_whatsapp');
  }
}
