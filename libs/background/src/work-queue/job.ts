import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

/** A claimed job as its handler sees it. */
export interface Job<P = unknown> {
  /** The row's id (a bigint, as text). */
  readonly id: string;
  readonly queue: string;
  readonly payload: P;
  /** Claims so far, this one included: 1 on the first run. */
  readonly attempts: number;
  /** When the job was due. */
  readonly runAt: Date;
  /**
   * Deletes the job on `executor`, normally the handler's own transaction, so the job's
   * database effects and its completion commit together or not at all. Called first in that
   * transaction it also locks the row, so no other worker can take the job over meanwhile.
   * Throws `JobLeaseLostError` when another worker has claimed it since (this one's lease
   * expired): the transaction must roll back.
   */
  complete(executor: SqlRunner): Promise<void>;
  /**
   * Reschedules the job for `at` on `executor` (releases the lease, keeps `attempts`),
   * optionally with a new payload; the same fencing as `complete`.
   */
  retryAt(executor: SqlRunner, at: Date, payload?: P): Promise<void>;
  /**
   * Locks the job row on `executor` and checks this worker still holds it, without settling it:
   * for a handler that commits part of its work before a slow step (an SMTP conversation) and
   * completes the job afterwards. Throws `JobLeaseLostError` like `complete`.
   */
  hold(executor: SqlRunner): Promise<void>;
  /**
   * Tells the worker that this job's outcome is committed while the rest of its batch still
   * runs: its slot takes another job at once, rather than when the whole batch returns. Only for
   * a job the handler settled (`complete` or `retryAt`) in a transaction that has committed.
   */
  done(): void;
}

/** The job was claimed again by another worker after this worker's lease expired. */
export class JobLeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} was claimed by another worker after its lease expired`);
    this.name = 'JobLeaseLostError';
  }
}

export interface ClaimedRow {
  id: string;
  queue: string;
  payload: unknown;
  attempts: number;
  run_at: Date;
}

/** A job this worker holds; `attempts` as claimed is the fencing token of every write. */
export class ClaimedJob<P> implements Job<P> {
  readonly id: string;
  readonly queue: string;
  readonly payload: P;
  readonly attempts: number;
  readonly runAt: Date;
  /** Whether the handler completed or rescheduled the job (its transaction may still roll back). */
  settled = false;
  /** The time `retryAt` set, so the worker can wake for it. */
  rescheduledFor?: Date;
  /** What `done` tells the worker (set by it); called once at most. */
  onDone?: () => void;

  constructor(
    readonly schema: string,
    row: ClaimedRow,
  ) {
    this.id = String(row.id);
    this.queue = row.queue;
    this.payload = row.payload as P;
    this.attempts = row.attempts;
    this.runAt = row.run_at;
  }

  async complete(executor: SqlRunner): Promise<void> {
    const result = await executor.query(
      `DELETE FROM "${this.schema}".jobs WHERE id = $1 AND attempts = $2 RETURNING id`,
      [this.id, this.attempts],
    );
    this.fenced(result);
  }

  async retryAt(executor: SqlRunner, at: Date, payload?: P): Promise<void> {
    const result = await executor.query(
      `UPDATE "${this.schema}".jobs
       SET run_at = $3, locked_until = NULL, payload = coalesce($4::jsonb, payload)
       WHERE id = $1 AND attempts = $2 RETURNING id`,
      [this.id, this.attempts, at, payload === undefined ? null : JSON.stringify(payload)],
    );
    this.fenced(result);
    this.rescheduledFor = at;
  }

  done(): void {
    const tell = this.onDone;
    this.onDone = undefined;
    tell?.();
  }

  async hold(executor: SqlRunner): Promise<void> {
    const result = await executor.query(
      `SELECT id FROM "${this.schema}".jobs WHERE id = $1 AND attempts = $2 FOR UPDATE`,
      [this.id, this.attempts],
    );
    // returnedRows, not rowsOf: a pg Pool or client answers with a result object, whose missing
    // `length` would let a lost lease pass unnoticed.
    if (returnedRows(result) === 0) throw new JobLeaseLostError(this.id);
  }

  private fenced(result: unknown): void {
    if (returnedRows(result) === 0) throw new JobLeaseLostError(this.id);
    this.settled = true;
  }
}

/**
 * `hold` for many jobs in one statement (rows locked in id order, the order every batch takes
 * them in, so two batches never wait on each other in a cycle). Answers the jobs this worker
 * still holds; a job whose lease another worker took over is left out, and the caller leaves it
 * alone: that worker runs it.
 */
export async function holdJobs<P>(executor: SqlRunner, jobs: readonly Job<P>[]): Promise<Job<P>[]> {
  if (jobs.length === 0) return [];
  const claimed = jobs.map(claimedJob);
  const result = await executor.query(
    `SELECT id::text AS id FROM "${claimed[0].schema}".jobs
     WHERE id = ANY($1::bigint[])
       AND (id, attempts) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))
     ORDER BY id FOR UPDATE`,
    [claimed.map((job) => job.id), claimed.map((job) => job.attempts)],
  );
  const held = new Set(rowsReturned(result).map((row) => String(row.id)));
  return jobs.filter((job) => held.has(job.id));
}

/**
 * `complete` for many jobs in one statement, fenced the same way; a job another worker took over
 * is left to it (not deleted, not marked settled). Answers the jobs completed.
 */
export async function completeJobs<P>(
  executor: SqlRunner,
  jobs: readonly Job<P>[],
): Promise<Job<P>[]> {
  if (jobs.length === 0) return [];
  const claimed = jobs.map(claimedJob);
  const result = await executor.query(
    `DELETE FROM "${claimed[0].schema}".jobs
     WHERE id = ANY($1::bigint[])
       AND (id, attempts) IN (SELECT * FROM unnest($1::bigint[], $2::int[]))
     RETURNING id::text AS id`,
    [claimed.map((job) => job.id), claimed.map((job) => job.attempts)],
  );
  const deleted = new Set(rowsReturned(result).map((row) => String(row.id)));
  const completed = claimed.filter((job) => deleted.has(job.id));
  for (const job of completed) job.settled = true;
  return completed;
}

/**
 * For a handler that deletes its jobs inside a statement of its own (fenced on id and attempts
 * as `completeJobs` is, so it can record their effects in the same statement): the jobs' fences,
 * then `markCompleted` with the ids that statement deleted, so the worker does not complete them
 * again. Answers the jobs completed.
 */
export function jobFences<P>(jobs: readonly Job<P>[]): Array<{ id: string; attempts: number }> {
  return jobs.map(claimedJob).map((job) => ({ id: job.id, attempts: job.attempts }));
}

/**
 * The CTE such a statement deletes its jobs with: `done AS (...)`, fenced on the fences' ids in
 * parameter `$idsParam` and attempts in the next, answering each deleted job's `id` and the
 * `payloadKey` of its payload (the row the job was for) as `key`.
 */
export function completedJobsCte(schema: string, idsParam: number, payloadKey: string): string {
  const ids = `$${idsParam}::bigint[]`;
  return `done AS (
         DELETE FROM "${schema}".jobs
         WHERE id = ANY (${ids})
           AND (id, attempts) IN (SELECT * FROM unnest(${ids}, $${idsParam + 1}::int[]))
         RETURNING id, payload->>'${payloadKey}' AS key
       )`;
}

export function markCompleted<P>(
  jobs: readonly Job<P>[],
  deletedIds: ReadonlySet<string>,
): Job<P>[] {
  const completed = jobs.map(claimedJob).filter((job) => deletedIds.has(job.id));
  for (const job of completed) job.settled = true;
  return completed;
}

function claimedJob<P>(job: Job<P>): ClaimedJob<P> {
  if (!(job instanceof ClaimedJob)) throw new Error('not a job claimed by a work queue worker');
  return job as ClaimedJob<P>;
}

/** The rows of a RETURNING statement, whatever ran it (see `returnedRows`). */
function rowsReturned(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return rowsOf<Record<string, unknown>>(result);
  const rows = (result as { rows?: unknown } | null)?.rows;
  if (Array.isArray(rows)) return rows as Array<Record<string, unknown>>;
  throw new Error('The executor did not return the rows of a RETURNING statement');
}

/**
 * Rows a RETURNING statement gave back, whatever ran it: TypeORM resolves to the rows (or
 * `[rows, count]`), a pg Pool or client to a result object. Both fit `SqlRunner`, so both count.
 */
function returnedRows(result: unknown): number {
  return rowsReturned(result).length;
}
