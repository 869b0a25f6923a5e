import { Injectable } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { LATE_REACTIONS_QUEUE, logInboundReactions } from './inbound-reactions';
import type { LateReactionsPayload } from './inbound-reactions';
import { settleLateItems } from '../webhooks/late-webhook-items';
import { InboundRepository } from './inbound.repository';

/**
 * Logs again the contact's reactions Meta delivered before the message they react to was
 * recorded (`InboundMessagesRecorder` queues them). Each try is one transaction with the job's
 * completion; what still matches nothing is tried again a little later each time for about a
 * minute (`settleLateItems`), then dropped: a reaction to a message this workspace never had (or
 * no longer keeps).
 */
@Injectable()
export class LateReactionsRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pool: Pool;
  private worker?: WorkQueueWorker;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly repository: InboundRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.worker = new WorkQueue(this.pool, 'sms_whatsapp').start<LateReactionsPayload>({
      queue: LATE_REACTIONS_QUEUE,
      concurrency: 2,
      leaseMs: 30_000,
      handle: (job) => this.apply(job),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop();
  }

  private async apply(job: Job<LateReactionsPayload>): Promise<void> {
    const { workspace_id: workspaceId, business, reactions } = job.payload;
    await inPgTransaction(this.pool, async (tx) => {
      const rows = reactions.map((row) => ({ ...row, at: new Date(row.at) }));
      const left = await logInboundReactions(tx, this.repository, workspaceId, business, rows);
      await settleLateItems(tx, job, left, () => ({
        workspace_id: workspaceId,
        business,
        reactions: left.map((row) => ({ ...row, at: row.at.toISOString() })),
      }));
    });
    wakeRelay(this.pool, 'sms_whatsapp');
  }
}
