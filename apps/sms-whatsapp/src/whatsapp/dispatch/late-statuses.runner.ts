import { Injectable } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeRelay, WorkQueue } from '@switchboard/background';
import type { Job, WorkQueueWorker } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { LATE_STATUSES_QUEUE, WhatsAppStatusesRepository } from '../messages';
import type { LateStatusesPayload, StatusUpdate } from '../messages';
import { applyOwnReactionStatuses } from '../reactions';
import { settleLateItems } from '../webhooks/late-webhook-items';
import type { MetaError, MetaStatus } from '../webhooks/meta-webhook';

/**
 * Applies again the statuses Meta reported before their wamid was recorded (`MetaStatusApplier`
 * queues them): a message's, recorded by the dispatcher once Meta answered it, or one of our
 * reactions', recorded by the interactions runner. Each try is one transaction with the job's
 * completion; what still matches nothing is tried again a little later each time for about a
 * minute (`settleLateItems`), then dropped as not ours.
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
    const { number_id: numberId, workspace_id: workspaceId, statuses } = job.payload;
    await inPgTransaction(this.pool, async (tx) => {
      const messages = await this.statuses.applyStatuses(tx, statuses, numberId);
      const unmatched = statuses.filter((status) => !messages.has(status.wamid));
      // A job queued before the payload named its workspace tries the messages only.
      const reactions = workspaceId
        ? await applyOwnReactionStatuses(tx, workspaceId, unmatched.map(asMetaStatus))
        : new Set<string>();
      const left = unmatched.filter((status) => !reactions.has(status.wamid));
      await settleLateItems(tx, job, left, () => ({
        number_id: numberId,
        workspace_id: workspaceId,
        statuses: left,
      }));
    });
    wakeRelay(this.pool, 'sms_whatsapp');
  }
}

/** The status as Meta posted it: `statusUpdatesOf` queued its wamid, status, time and errors. */
function asMetaStatus(status: StatusUpdate): MetaStatus {
  return {
    id: status.wamid,
    status: status.status,
    timestamp: String(status.timestamp),
    errors: status.errors as MetaError[] | undefined,
  };
}
