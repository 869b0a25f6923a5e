import type { Logger } from '@nestjs/common';
import { inPgTransaction } from '@switchboard/persistence';
import { CommitBatcher, completeJobs, holdJobs, wakeRelay } from '@switchboard/background';
import type { Job } from '@switchboard/background';
import type { Pool } from 'pg';
import type { DeliveryAttempt, DeliveryService } from './delivery.service';

interface Finished {
  job: Job<unknown>;
  /** Undefined when there was nothing to send (canceled, or every recipient already final). */
  attempt?: DeliveryAttempt;
}

/**
 * Records finished delivery attempts in batches: every attempt that finishes while a recording
 * transaction runs waits for the next one, so under load one transaction (a fixed number of
 * statements) settles many jobs, and a slow SMTP conversation never holds back the others'
 * results. Each `record` resolves once its attempt is committed with its job settled.
 */
export class AttemptRecorder {
  private readonly batcher = new CommitBatcher<Finished>((batch) => this.commit(batch));

  constructor(
    private readonly pool: Pool,
    private readonly delivery: DeliveryService,
    private readonly logger: Pick<Logger, 'debug'>,
  ) {}

  record(job: Job<unknown>, attempt: DeliveryAttempt | undefined): Promise<void> {
    return this.batcher.add({ job, attempt });
  }

  /**
   * One transaction: the jobs still held (a job another worker took over is left to it), their
   * attempts' outcomes, then each job completed or rescheduled for its deferred recipients.
   */
  private async commit(batch: Finished[]): Promise<void> {
    await inPgTransaction(this.pool, async (manager) => {
      const held = new Set(
        await holdJobs(
          manager,
          batch.map((entry) => entry.job),
        ),
      );
      const kept = batch.filter((entry) => held.has(entry.job));
      const tried = kept.filter((entry) => entry.attempt);
      const outcomes = await this.delivery.record(
        manager,
        tried.map((entry) => entry.attempt as DeliveryAttempt),
      );
      const done = kept.filter((entry) => !entry.attempt).map((entry) => entry.job);
      for (const [index, outcome] of outcomes.entries()) {
        const { job, attempt } = tried[index];
        if (outcome.done) {
          done.push(job);
          continue;
        }
        this.logger.debug(
          `${attempt?.message.id}: ${outcome.recipientIds.length} deferred until ${outcome.retryAt.toISOString()}`,
        );
        await job.retryAt(manager, outcome.retryAt, {
          ...(job.payload as object),
          recipient_ids: outcome.recipientIds,
        });
      }
      await completeJobs(manager, done);
    });
    wakeRelay(this.pool, 'email');
  }
}
