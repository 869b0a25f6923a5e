import type { SqlRunner } from '@switchboard/persistence';

export interface NewJob {
  queue: string;
  /** Stored as jsonb: plain JSON values only. */
  payload: unknown;
  /** When the job becomes due; now when omitted. */
  runAt?: Date;
}

/**
 * Adds jobs in the caller's transaction, in one statement whatever their number: they exist
 * exactly when the change that caused them commits. After the commit, the caller wakes the
 * queue's workers with `wakeQueue` (libs/persistence notify/) so an idle one claims them at once;
 * jobs due later need no wake-up, the workers' timers find them.
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
  await executor.query(
    `INSERT INTO "${schema}".jobs (queue, payload, run_at)
     SELECT queue, payload, coalesce(run_at, now())
     FROM unnest($1::text[], $2::jsonb[], $3::timestamptz[]) WITH ORDINALITY AS t(queue, payload, run_at, n)
     ORDER BY n`,
    [queues, payloads, runAts],
  );
}
