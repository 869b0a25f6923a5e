import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { PgListener } from './pg-listener';
import { QueueRunner } from './queue-runner';
import type { QueueLogger, WorkQueueWorker, WorkQueueWorkerOptions } from './queue-runner';
import { jobsChannel } from './work-queue.table';
import { reclaimOrphans, WorkerPresence } from './worker-presence';

/** How often a work queue looks for running jobs whose worker is gone. */
const RECLAIM_EVERY_MS = 2000;

/**
 * The workers of one schema's work queue (`workQueueTable`). Claims, renewals and reschedules
 * go through the service's pg `Pool`; one extra connection LISTENs for `enqueueJobs`'s NOTIFY
 * while any worker runs, so every replica's idle workers wake when jobs commit. That connection
 * also holds the queue's presence lock (`WorkerPresence`): the jobs of a worker whose process
 * ended are freed by the first live worker to look (at its start, then every two seconds), and
 * the lease only bounds the takeover from a host that vanished without closing its sockets.
 */
export class WorkQueue {
  private readonly workers = new Set<QueueRunner<unknown>>();
  private readonly presence = new WorkerPresence();
  private listener?: PgListener;
  /** Settles once the listener's first connection attempt has (presence taken, or not). */
  private connected: Promise<void> = Promise.resolve();
  private reclaimTimer?: NodeJS.Timeout;
  private reclaiming?: Promise<void>;

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
    const worker = new QueueRunner<P>(
      this.pool,
      this.schema,
      options,
      this.logger,
      () => this.presence.owner,
    );
    this.workers.add(worker as QueueRunner<unknown>);
    this.listen();
    // Claims wait for the presence, so that even the first ones carry it.
    void this.connected.then(() => worker.start());
    return {
      reserve: (max) => worker.reserve(max),
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
      onConnect: (client) => this.presence.acquire(client),
      onListening: () => {
        for (const worker of this.workers) worker.kick();
        this.reclaim();
      },
      onError: (err) => {
        this.presence.lost();
        this.logger.warn(
          `LISTEN ${channel} lost (${err.message}); reconnecting, polling meanwhile`,
        );
      },
    });
    this.connected = this.listener.start();
    this.reclaimTimer = setInterval(() => this.reclaim(), RECLAIM_EVERY_MS);
    this.reclaimTimer.unref();
  }

  private async unlisten(): Promise<void> {
    const { listener } = this;
    this.listener = undefined;
    clearInterval(this.reclaimTimer);
    await this.reclaiming;
    await listener?.close();
  }

  /** Frees the jobs of workers that are gone and wakes this queue's workers for them. */
  private reclaim(): void {
    if (this.reclaiming || !this.listener) return;
    this.reclaiming = reclaimOrphans(this.pool, this.schema)
      .then((freed) => {
        if (freed.length === 0) return;
        const queues = new Set(freed.map((row) => row.queue));
        const counts = freed.map((row) => `${row.jobs} of ${row.queue}`).join(', ');
        this.logger.warn(
          `took over running jobs whose worker is gone (${counts}); ` +
            'a delivery they had in flight may be repeated',
        );
        for (const worker of this.workers) if (queues.has(worker.queue)) worker.kick();
      })
      .catch((err: unknown) =>
        this.logger.warn(
          `looking for jobs of workers that are gone failed (${(err as Error).message})`,
        ),
      )
      .finally(() => (this.reclaiming = undefined));
  }
}
