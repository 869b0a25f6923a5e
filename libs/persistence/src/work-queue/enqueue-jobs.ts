import type { SqlRunner } from '../pagination';
import { jobsChannel } from './work-queue.table';

export interface NewJob {
  queue: string;
  /** Stored as jsonb: plain JSON values only. */
  payload: unknown;
  /** When the job becomes due; now when omitted. */
  runAt?: Date;
}

/**
 * Adds jobs in the caller's transaction, in one statement whatever their number: they exist
 * exactly when the change that caused them commits. The same statement NOTIFYs each queue
 * (Postgres delivers notifications at commit, never for a rolled-back transaction) so an idle
 * worker claims them at once; jobs due later are announced too, so a worker can wake earlier.
 */
export async function enqueueJobs(
  executor: SqlRunner,
  schema: string,
  jobs: readonly NewJob[],
): Promise<void> {
  if (jobs.length === 0) return;
  const queues = jobs.map((job) => job.queue);
  const payloads = jobs.map((job) => JSON.stringify(job.payload ?? null));
  const runAts = jobs.map((job) => job.runAt ?? null);
  // The notify CTE is referenced by the final SELECT, which makes Postgres run it.
  await executor.query(
    `WITH inserted AS (
       INSERT INTO "${schema}".jobs (queue, payload, run_at)
       SELECT queue, payload, coalesce(run_at, now())
       FROM unnest($1::text[], $2::jsonb[], $3::timestamptz[]) WITH ORDINALITY AS t(queue, payload, run_at, n)
       ORDER BY n
       RETURNING queue
     ), notified AS (
       SELECT pg_notify($4, queue) FROM (SELECT DISTINCT queue FROM inserted) AS queues
     )
     SELECT count(*) AS notified FROM notified`,
    [queues, payloads, runAts, jobsChannel(schema)],
  );
}
