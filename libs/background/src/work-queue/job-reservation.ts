import type { ClaimedRow } from './job';

/**
 * Free slots of a worker taken by the producer of its jobs, so the producer can insert jobs
 * already claimed by that worker and hand them over in memory: no claim statement, and the
 * producer can pass along what it read to make them (the handler need not read it again). A
 * job inserted claimed is like one claimed by the worker: its lease is renewed while it runs,
 * and if the worker is gone it is taken over (its presence, then its lease).
 *
 * Use: `reserve(max)`, insert `count` of the jobs with `claimedOnInsert` and the rest as usual,
 * in the producer's transaction; after the commit `adopt` the claimed rows, or `release` if the
 * transaction failed. Slots reserved count as running until then. Nothing is granted while the
 * worker has a backlog (due jobs waiting in the table) or a claim running, nor while another
 * reservation is open, so reserved jobs never overtake jobs queued before them by this worker's
 * producers. (Retries coming due and other processes' queued jobs are not ordered with them.)
 */
export interface JobReservation {
  /** Slots granted: 0 when the worker is full, stopping or not started. */
  readonly count: number;
  /** The parameters `claimedOnInsert`'s columns read: count, lease in ms, the worker's presence. */
  readonly params: readonly [number, number, number | null];
  /**
   * Runs these jobs, inserted claimed on this reservation (at most `count`), and frees the rest.
   * `othersQueued`: the producer also inserted jobs it could not claim; no reservation is
   * granted until the worker has claimed them, so jobs start in the order they were queued.
   * Answers whether they run (not when the worker stopped meanwhile: they are taken over).
   */
  adopt(rows: readonly ClaimedRow[], othersQueued?: boolean): boolean;
  /** Frees every slot (nothing was inserted claimed, or the transaction rolled back). */
  release(): void;
}

/**
 * The `attempts, locked_until, locked_by` values of a job inserted on a reservation, for an
 * `INSERT INTO jobs (queue, payload, attempts, locked_until, locked_by) SELECT ...`: the row
 * whose 1-based `rank` is within the reservation's count is claimed (attempt 1, leased from the
 * statement's clock, as a claim is), the others are left for any worker to claim. `firstParam`
 * is the position of the reservation's `params` in the statement's parameters.
 */
export function claimedOnInsert(rank: string, firstParam: number): string {
  const claimed = `${rank} <= $${firstParam}::int`;
  return `CASE WHEN ${claimed} THEN 1 ELSE 0 END,
    CASE WHEN ${claimed} THEN statement_timestamp() + $${firstParam + 1}::int * interval '1 millisecond' END,
    CASE WHEN ${claimed} THEN $${firstParam + 2}::int END`;
}

/** A reservation of nothing. */
export const NO_RESERVATION: JobReservation = {
  count: 0,
  params: [0, 0, null],
  adopt: () => false,
  release: () => undefined,
};
