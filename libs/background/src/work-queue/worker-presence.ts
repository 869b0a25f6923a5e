import { randomInt } from 'node:crypto';
import type { Client, Pool } from 'pg';

/** The first key of every presence lock ('SWQ1'): they never meet another advisory lock. */
export const PRESENCE_NAMESPACE = 0x53575131;
const MAX_ID = 2 ** 31 - 1;

/**
 * A work queue's presence in Postgres: a session-level advisory lock `(PRESENCE_NAMESPACE, id)`
 * held on the queue's LISTEN connection while the process lives; the jobs it claims carry the id
 * (`locked_by`). When the process dies the server ends its session, and the lock with it, as soon
 * as the socket closes (at once for a killed process: its kernel closes it). Any live worker then
 * sees which running jobs have nobody behind them and frees them (`reclaimOrphans`) without
 * waiting for their leases. A host that vanishes without closing its sockets keeps its locks
 * until the server's TCP keep-alive gives up: then the lease, renewed while the worker lives, is
 * what bounds the takeover.
 */
export class WorkerPresence {
  private id?: number;
  private held = false;

  /** The id to stamp on claims while the lock is held; null otherwise (the lease alone covers them). */
  get owner(): number | null {
    return this.held && this.id !== undefined ? this.id : null;
  }

  /**
   * Takes the lock on a new connection: the same id as before when free (jobs claimed under it
   * are covered again), else a fresh random one.
   */
  async acquire(client: Client): Promise<void> {
    for (let tries = 0; tries < 8; tries++) {
      const id = this.id ?? randomInt(1, MAX_ID);
      const { rows } = await client.query<{ held: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS held',
        [PRESENCE_NAMESPACE, id],
      );
      if (rows[0]?.held) {
        this.id = id;
        this.held = true;
        return;
      }
      this.id = undefined;
    }
    throw new Error('no free work queue presence id after 8 tries');
  }

  /** The connection holding the lock dropped: claims carry no owner until it is taken again. */
  lost(): void {
    this.held = false;
  }
}

/**
 * Frees the running jobs (lease not yet expired) whose worker's presence lock is gone, so the
 * next claim takes them; answers how many per queue. Whether an owner is gone is asked of the
 * lock itself, row by row and at the moment the row is updated: `pg_try_advisory_xact_lock`
 * succeeds only when no session holds the owner's lock, and then holds it until this statement
 * commits, so a worker starting meanwhile cannot take that id. A worker that claimed a row under
 * a fresh id while this statement ran is seen holding its lock when the row is rechecked.
 *
 * `attempts` is left alone: the dead worker's claim is fenced by the next one. Run it on the
 * pool, never on a connection that holds presence locks (a session's own lock would look free).
 */
export async function reclaimOrphans(
  pool: Pick<Pool, 'query'>,
  schema: string,
): Promise<Array<{ queue: string; jobs: number }>> {
  const { rows } = await pool.query<{ queue: string; jobs: number }>(
    `WITH freed AS (
       UPDATE "${schema}".jobs SET locked_until = NULL, locked_by = NULL
       WHERE locked_by IS NOT NULL AND locked_until > now()
         AND pg_try_advisory_xact_lock($1::int, locked_by)
       RETURNING queue
     )
     SELECT queue, count(*)::int AS jobs FROM freed GROUP BY queue`,
    [PRESENCE_NAMESPACE],
  );
  return rows;
}
