import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { PgListener } from './pg-listener';
import { QueueRunner } from './queue-runner';
import type { QueueLogger, WorkQueueWorker, WorkQueueWorkerOptions } from './queue-runner';
import { jobsChannel } from './work-queue.table';

/**
 * The workers of one schema's work queue (`workQueueTable`). Claims, renewals and reschedules
 * go through the service's pg `Pool`; one extra connection LISTENs for `enqueueJobs`'s NOTIFY
 * while any worker runs, so every replica's idle workers wake when jobs commit.
 */
export class WorkQueue {
  private readonly workers = new Set<QueueRunner<unknown>>();
  private listener?: PgListener;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly logger: QueueLogger = new Logger(WorkQueue.name),
  ) {}

  /** Starts a worker on one queue; several queues (or several workers of one) may run at once. */
  start<P = unknown>(options: WorkQueueWorkerOptions<P>): WorkQueueWorker {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1)
      throw new Error(`concurrency of queue ${options.queue} must be a positive integer`);
    if (!options.handle === !options.handleBatch)
      throw new Error(`queue ${options.queue} needs exactly one of handle and handleBatch`);
    if (
      options.batchSize !== undefined &&
      !(Number.isInteger(options.batchSize) && options.batchSize >= 1)
    )
      throw new Error(`batchSize of queue ${options.queue} must be a positive integer`);
    if (!(options.leaseMs > 0))
      throw new Error(`leaseMs of queue ${options.queue} must be positive`);
    const worker = new QueueRunner<P>(this.pool, this.schema, options, this.logger);
    this.workers.add(worker as QueueRunner<unknown>);
    this.listen();
    worker.start();
    return {
      stop: async () => {
        await worker.stop();
        this.workers.delete(worker as QueueRunner<unknown>);
        if (this.workers.size === 0) await this.unlisten();
      },
    };
  }

  /** Stops every worker (each waits for its running handlers). */
  async stop(): Promise<void> {
    await Promise.all([...this.workers].map((worker) => worker.stop()));
    this.workers.clear();
    await this.unlisten();
  }

  private listen(): void {
    if (this.listener) return;
    const channel = jobsChannel(this.schema);
    this.listener = new PgListener(this.pool.options, {
      channel,
      onNotify: (queue) => {
        for (const worker of this.workers) if (worker.queue === queue) worker.kick();
      },
      onListening: () => {
        for (const worker of this.workers) worker.kick();
      },
      onError: (err) =>
        this.logger.warn(
          `LISTEN ${channel} lost (${err.message}); reconnecting, polling meanwhile`,
        ),
    });
    void this.listener.start();
  }

  private async unlisten(): Promise<void> {
    const { listener } = this;
    this.listener = undefined;
    await listener?.close();
  }
}
