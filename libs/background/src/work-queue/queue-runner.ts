import type { Pool } from 'pg';
import type { ForegroundPriority } from '@switchboard/platform';
import { inPgTransaction, pgRunner, READ_IN_INDEX_ORDER } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { backoffMs } from './backoff';
import { ClaimedJob, completeJobs, JobLeaseLostError } from './job';
import type { ClaimedRow, Job } from './job';
import { NO_RESERVATION } from './job-reservation';
import type { JobReservation } from './job-reservation';

export interface WorkQueueWorkerOptions<P = unknown> {
  queue: string;
  /** Jobs run at the same time by this worker; one claim takes up to the free slots at once. */
  concurrency: number;
  /**
   * How long a claim holds a job. The worker renews the lease of its running jobs every third
   * of it, so it only runs out when the worker is gone: then another worker takes the job over.
   * A worker whose process ended is usually taken over sooner, through its presence
   * (`WorkerPresence`); the lease is the bound when that cannot be seen.
   */
  leaseMs: number;
  /** Longest sleep between looks at the table (missed notifications, expired leases). Default 5 s. */
  pollMs?: number;
  /** Back-off after a handler throws: `backoffBaseMs` doubled per attempt. Default 1 s. */
  backoffBaseMs?: number;
  /** Upper bound of that back-off. Default 1 hour. */
  backoffCapMs?: number;
  /**
   * Runs one job. It should finish the job in its own transaction (`job.complete`,
   * `job.retryAt`); if it returns without doing so the worker completes the job afterwards (at
   * least once). If it throws, the job is rescheduled with back-off and `last_error` recorded:
   * a job is never dropped, so a handler gives up on a job by completing it.
   * Give either `handle` or `handleBatch`.
   */
  handle?: (job: Job<P>) => Promise<void>;
  /**
   * Runs the jobs of one claim together, at most `batchSize` at a time, so a handler can do set-
   * based SQL for all of them (`holdJobs`, `completeJobs`). The same rules as `handle`, per job:
   * those it leaves unsettled are completed afterwards; if it throws, each unsettled one is
   * rescheduled with back-off.
   */
  handleBatch?: (jobs: Job<P>[]) => Promise<void>;
  /** Most jobs per `handleBatch` call; `concurrency` still bounds the jobs running. Default 1. */
  batchSize?: number;
  /**
   * Makes this background work yield to requests: the worker fills only
   * `priority.limit(concurrency)` slots (fewer while requests keep the event loop busy) and
   * claims again when the share grows. Without it, `concurrency` slots always.
   */
  priority?: Pick<ForegroundPriority, 'limit' | 'onRaise'>;
}

export interface WorkQueueWorker {
  /** Stops claiming and resolves once every running handler has finished. */
  stop(): Promise<void>;
  /** Takes up to `max` free slots for jobs the caller inserts already claimed (`JobReservation`). */
  reserve(max: number): JobReservation;
}

export interface QueueLogger {
  warn(message: string): void;
}

const ERROR_LIMIT = 2000;

/**
 * The claim: $1 queue, $2 most jobs, $3 lease in ms, $4 the claiming worker's presence. Answers
 * the claimed jobs in due order, each row carrying `next_due_ms` (one row of nulls but that when
 * nothing was claimed). MATERIALIZED: the locking subquery runs exactly once, so the LIMIT holds.
 * `next` is one row (an aggregate), so the join returns it even when nothing was claimed. Its
 * clock is the statement's, not the transaction's `now()`: the claim runs in a transaction
 * begun a round trip earlier (for its plan settings), and leases start when the claim does.
 */
export function claimJobsStatement(schema: string): string {
  return `WITH picked AS MATERIALIZED (
       SELECT id, run_at FROM "${schema}".jobs
       WHERE queue = $1 AND run_at <= statement_timestamp()
         AND (locked_until IS NULL OR locked_until < statement_timestamp())
       ORDER BY run_at, id
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE "${schema}".jobs AS j
       SET locked_until = statement_timestamp() + $3 * interval '1 millisecond',
         attempts = j.attempts + 1, locked_by = $4
       FROM picked WHERE j.id = picked.id
       RETURNING j.id::text AS id, j.queue, j.payload, j.attempts, picked.run_at
     ), next AS (
       SELECT (extract(epoch FROM min(run_at) - statement_timestamp()) * 1000)::float8
         AS next_due_ms
       FROM "${schema}".jobs WHERE queue = $1 AND run_at > statement_timestamp()
     )
     SELECT claimed.*, next.next_due_ms FROM next LEFT JOIN claimed ON true
     ORDER BY claimed.run_at, claimed.id`;
}

/**
 * One queue's claim loop. A claim runs when there is reason to think work is due (start, a
 * NOTIFY, a handler finishing while a backlog remains, the timer) and never two at once; it
 * takes as many jobs as there are free slots in one statement. When the queue runs dry the
 * worker sleeps until the earliest future `run_at` or `pollMs`, whichever is sooner.
 */
export class QueueRunner<P> implements WorkQueueWorker {
  readonly queue: string;
  private readonly running = new Map<string, number>();
  /** Slots held by open reservations: counted as running until adopted or released. */
  private reserved = 0;
  private readonly inflight = new Set<Promise<void>>();
  private readonly pool: SqlRunner;
  private readonly pgPool: Pool;
  private readonly pollMs: number;
  private stopping?: Promise<void>;
  /** Whether a pump is under way; `pumping` is its promise, for stop() to await. */
  private busy = false;
  private pumping?: Promise<void>;
  private again = false;
  /** Whether the last claim filled every free slot, so more jobs may be due. */
  private backlog = false;
  /** A claim is running: its slots are taken and its answer decides `backlog`. */
  private claiming = false;
  private kickPending = false;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private heartbeat?: NodeJS.Timeout;
  private renewing?: Promise<void>;
  private stopListening?: () => void;

  constructor(
    pool: Pool,
    private readonly schema: string,
    private readonly options: WorkQueueWorkerOptions<P>,
    private readonly logger: QueueLogger,
    /** The presence id claims carry (`locked_by`), null while the work queue has none. */
    private readonly owner: () => number | null = () => null,
  ) {
    this.queue = options.queue;
    this.pollMs = options.pollMs ?? 5000;
    this.pgPool = pool;
    this.pool = pgRunner(pool);
  }

  start(): void {
    if (this.stopping) return;
    this.heartbeat = setInterval(() => this.renewLeases(), Math.max(this.options.leaseMs / 3, 10));
    this.heartbeat.unref();
    this.stopListening = this.options.priority?.onRaise(() => {
      if (this.backlog) this.kick();
    });
    this.kick();
  }

  /** Looks for due jobs now (or right after the claim in progress). */
  kick(): void {
    // Before start() (the work queue's presence is being taken) there is nothing to claim with.
    if (this.stopping || !this.heartbeat) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.pumping = this.pump();
  }

  stop(): Promise<void> {
    this.stopping ??= this.drain();
    return this.stopping;
  }

  private async drain(): Promise<void> {
    this.stopListening?.();
    clearTimeout(this.timer);
    await this.pumping;
    while (this.inflight.size) await Promise.all(this.inflight);
    clearInterval(this.heartbeat);
    await this.renewing;
  }

  /** Kicks once for every handler that finishes in the same turn of the event loop. */
  private kickSoon(): void {
    if (this.kickPending) return;
    this.kickPending = true;
    setImmediate(() => {
      this.kickPending = false;
      this.kick();
    });
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.fill();
      } while (this.again && !this.stopping);
    } catch (err) {
      this.logger.warn(
        `claiming jobs of queue ${this.queue} failed (${message(err)}); trying again in ${this.pollMs} ms`,
      );
      this.arm(this.pollMs);
    } finally {
      // Cleared in the same step as the last look at `again`: a kick landing after it starts a
      // new pump instead of setting a flag nobody reads any more.
      this.busy = false;
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopping) {
      const free = this.freeSlots();
      if (free <= 0) {
        // A finishing handler claims again; the timer only covers the worst case.
        this.backlog = true;
        this.arm(this.pollMs);
        return;
      }
      this.claiming = true;
      let claimed: Awaited<ReturnType<QueueRunner<P>['claim']>>;
      try {
        claimed = await this.claim(free);
      } finally {
        this.claiming = false;
      }
      const { jobs, nextDueMs } = claimed;
      const size = this.options.batchSize ?? 1;
      for (let start = 0; start < jobs.length; start += size)
        this.run(jobs.slice(start, start + size));
      if (jobs.length < free) {
        this.backlog = false;
        this.arm(nextDueMs);
        return;
      }
      this.backlog = true;
    }
  }

  private freeSlots(): number {
    const { concurrency, priority } = this.options;
    const limit = priority ? priority.limit(concurrency) : concurrency;
    return limit - this.running.size - this.reserved;
  }

  reserve(max: number): JobReservation {
    // Before start() there is no presence to insert claims with; stopping, nothing new runs.
    // With a backlog, or while a claim runs (it may find one), jobs due before the producer's
    // are waiting in the table: they go first. One reservation at a time: another producer
    // could leave jobs unclaimed that this one's must not overtake.
    const ready =
      !this.stopping &&
      this.heartbeat !== undefined &&
      !this.backlog &&
      !this.claiming &&
      this.reserved === 0;
    const count = ready ? Math.min(max, this.freeSlots()) : 0;
    if (count <= 0) return NO_RESERVATION;
    this.reserved += count;
    let open = true;
    const close = (): boolean => {
      if (!open) return false;
      open = false;
      this.reserved -= count;
      if (this.backlog) this.kickSoon();
      return true;
    };
    return {
      count,
      params: [count, this.options.leaseMs, this.owner()],
      adopt: (rows, othersQueued = false) => {
        // Jobs left unclaimed behind these: claimed before any further reservation is granted.
        if (othersQueued) this.backlog = true;
        if (!close()) return false;
        if (rows.length > count)
          throw new Error(`${rows.length} jobs adopted on a reservation of ${count}`);
        // Stopped meanwhile: the rows stay claimed by this worker, whose presence ends with it,
        // so the next worker to look takes them over.
        if (this.stopping) return false;
        const size = this.options.batchSize ?? 1;
        for (let start = 0; start < rows.length; start += size)
          this.run(rows.slice(start, start + size));
        return true;
      },
      release: () => void close(),
    };
  }

  /**
   * Claims up to `limit` due jobs and, in the same statement (so by the same clock), learns in
   * how many milliseconds the next job becomes due. Asked separately, a job falling due between
   * the two statements would be neither claimed nor awaited.
   */
  private async claim(limit: number): Promise<{ jobs: ClaimedRow[]; nextDueMs: number }> {
    const claimed = (runner: SqlRunner) =>
      runner.query(claimJobsStatement(this.schema), [
        this.queue,
        limit,
        this.options.leaseMs,
        this.owner(),
      ]);
    const rows = (await inPgTransaction(this.pgPool, claimed, {
      settings: READ_IN_INDEX_ORDER,
    })) as Array<ClaimedRow & { next_due_ms: number | null }>;
    const nextDueMs = rows[0]?.next_due_ms ?? null;
    return {
      jobs: rows.filter((row) => row.id !== null),
      nextDueMs: nextDueMs === null ? Infinity : Math.max(nextDueMs, 0),
    };
  }

  /** Sets the timer to kick in `delayMs` unless it already fires sooner. */
  private arm(wantedMs: number): void {
    if (this.stopping) return;
    // pollMs also keeps the delay within setTimeout's range (a longer one would fire at once).
    const delayMs = Math.min(wantedMs, this.pollMs);
    const at = Date.now() + delayMs;
    if (at >= this.timerAt && this.timer) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.kick();
    }, delayMs);
    this.timer.unref();
  }

  private run(rows: readonly ClaimedRow[]): void {
    const jobs = rows.map((row) => new ClaimedJob<P>(this.schema, row));
    for (const job of jobs) {
      this.running.set(job.id, job.attempts);
      // Settled and committed ahead of its batch: the slot is free for the next claim.
      job.onDone = () => {
        if (this.running.delete(job.id) && this.backlog) this.kickSoon();
      };
    }
    const done: Promise<void> = this.execute(jobs).finally(() => {
      for (const job of jobs) this.running.delete(job.id);
      this.inflight.delete(done);
      if (this.backlog) this.kickSoon();
    });
    this.inflight.add(done);
  }

  private async execute(jobs: ClaimedJob<P>[]): Promise<void> {
    try {
      if (this.options.handleBatch) await this.options.handleBatch(jobs);
      else await this.options.handle?.(jobs[0]);
      const unsettled = jobs.filter((job) => !job.settled);
      if (unsettled.length === 1) await unsettled[0].complete(this.pool);
      else if (unsettled.length > 1) await completeJobs(this.pool, unsettled);
      const wakeAt = jobs.flatMap((job) => job.rescheduledFor ?? []);
      if (wakeAt.length) this.wakeFor(new Date(Math.min(...wakeAt.map((at) => at.getTime()))));
    } catch (err) {
      if (err instanceof JobLeaseLostError) {
        this.logger.warn(`${err.message}; this worker's run of it was discarded`);
        return;
      }
      for (const job of jobs) if (!job.settled) await this.reschedule(job, err);
    }
  }

  private async reschedule(job: ClaimedJob<P>, err: unknown): Promise<void> {
    const delay = backoffMs(
      job.attempts,
      this.options.backoffBaseMs ?? 1000,
      this.options.backoffCapMs ?? 3_600_000,
    );
    const error = message(err).slice(0, ERROR_LIMIT);
    try {
      // Fenced by attempts: if the handler's transaction completed the job after all, or another
      // worker holds it now, nothing changes.
      await this.pool.query(
        `UPDATE "${this.schema}".jobs
         SET run_at = now() + $3 * interval '1 millisecond', locked_until = NULL, last_error = $4
         WHERE id = $1 AND attempts = $2`,
        [job.id, job.attempts, delay, error],
      );
      this.logger.warn(
        `job ${job.id} of queue ${this.queue} failed on attempt ${job.attempts} (${error}); retrying in ${delay} ms`,
      );
      this.wakeFor(new Date(Date.now() + delay));
    } catch (updateErr) {
      this.logger.warn(
        `job ${job.id} of queue ${this.queue} failed (${error}) and could not be rescheduled ` +
          `(${message(updateErr)}); it runs again when its lease expires`,
      );
    }
  }

  private wakeFor(at: Date): void {
    const delay = at.getTime() - Date.now();
    if (delay <= 0) this.kickSoon();
    else this.arm(delay);
  }

  /** Extends the lease of every running job in one statement; rows a handler has locked are being finished. */
  private renewLeases(): void {
    if (this.running.size === 0 || this.renewing) return;
    const ids = [...this.running.keys()];
    const attempts = [...this.running.values()];
    this.renewing = this.pool
      .query(
        `UPDATE "${this.schema}".jobs SET locked_until = now() + $3 * interval '1 millisecond'
         WHERE id IN (
           SELECT id FROM "${this.schema}".jobs
           WHERE (id, attempts) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))
             AND locked_until IS NOT NULL
           FOR UPDATE SKIP LOCKED
         )`,
        [ids, attempts, this.options.leaseMs],
      )
      .then(
        () => undefined,
        (err: unknown) =>
          this.logger.warn(`renewing leases of queue ${this.queue} failed (${message(err)})`),
      )
      .finally(() => (this.renewing = undefined));
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
