import { beginWith, READ_IN_INDEX_ORDER } from '@switchboard/persistence';
import { startTestPostgres, watchTransactionBegins } from '@switchboard/testing';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { wakeQueue } from '../notify/wakeups';
import type { SqlRunner } from '@switchboard/persistence';
import { enqueueJobs } from './enqueue-jobs';
import type { NewJob } from './enqueue-jobs';
import { ClaimedJob, completeJobs, holdJobs, JobLeaseLostError } from './job';
import { claimedOnInsert, NO_RESERVATION } from './job-reservation';
import type { JobReservation } from './job-reservation';
import type { ClaimedRow, Job } from './job';
import { WorkQueue } from './work-queue';
import type { WorkQueueWorker, WorkQueueWorkerOptions } from './queue-runner';
import { workQueueOwnerColumn, workQueueTable } from './work-queue.table';
import { PRESENCE_NAMESPACE } from './worker-presence';

const SCHEMA = 'wq';
const quiet = { warn: (m: string) => process.env.WQ_DEBUG && console.log(m) };

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe(WorkQueue.name, () => {
  let postgres: { stop(): Promise<void>; url: string };
  let pool: Pool;
  let db: DataSource;
  const queues: WorkQueue[] = [];
  const workers: WorkQueueWorker[] = [];

  function queue(): WorkQueue {
    const created = new WorkQueue(pool, SCHEMA, quiet);
    queues.push(created);
    return created;
  }

  function start<P>(created: WorkQueue, options: WorkQueueWorkerOptions<P>) {
    const worker = created.start(options);
    workers.push(worker);
    return worker;
  }

  /** What a service does: enqueue (in its own transaction or not), then wake after the commit. */
  async function enqueue(jobs: NewJob[], executor: SqlRunner = pool): Promise<void> {
    await enqueueJobs(executor, SCHEMA, jobs);
    for (const name of new Set(jobs.map((job) => job.queue))) wakeQueue(pool, SCHEMA, name);
  }

  const remaining = async (name: string) =>
    Number(
      (await pool.query(`SELECT count(*) AS n FROM wq.jobs WHERE queue = $1`, [name])).rows[0].n,
    );

  beforeAll(async () => {
    const running = await startTestPostgres();
    postgres = running;
    pool = new Pool({ connectionString: running.url, max: 20 });
    // pg-pool's end() resolves before its sockets close, so the server's shutdown notice can reach
    // an ended client and surface as a pool error.
    pool.on('error', () => undefined);
    db = new DataSource({ type: 'postgres', url: running.url });
    await db.initialize();
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    await db.query(workQueueTable(SCHEMA));
    await db.query(workQueueOwnerColumn(SCHEMA));
    await db.query('CREATE TABLE wq.effects (job_id text NOT NULL, n integer NOT NULL)');
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(queues.splice(0).map((created) => created.stop()));
  });

  afterAll(async () => {
    await db?.destroy();
    await pool?.end();
    await postgres?.stop();
  });

  it('processes each of 300 jobs exactly once across two workers', async () => {
    const name = 'exactly-once';
    const handle = (job: Job<{ n: number }>) =>
      db.transaction(async (manager) => {
        await job.complete(manager);
        await manager.query('INSERT INTO wq.effects (job_id, n) VALUES ($1, $2)', [
          job.id,
          job.payload.n,
        ]);
      });
    start(queue(), { queue: name, concurrency: 8, leaseMs: 30_000, handle });
    start(queue(), { queue: name, concurrency: 8, leaseMs: 30_000, handle });

    const jobs = Array.from({ length: 300 }, (_, n) => ({ queue: name, payload: { n } }));
    await db.transaction((manager) => enqueueJobs(manager, SCHEMA, jobs.slice(0, 150)));
    wakeQueue(pool, SCHEMA, name);
    await enqueue(jobs.slice(150), db);

    await eventually(async () => (await remaining(name)) === 0);
    const { rows } = await pool.query<{ total: string; distinct: string; sum: string }>(
      'SELECT count(*) AS total, count(DISTINCT n) AS distinct, sum(n) AS sum FROM wq.effects',
    );
    expect(rows[0]).toEqual({ total: '300', distinct: '300', sum: String((299 * 300) / 2) });
  });

  it('claims with the settings that keep its read in index order', async () => {
    const name = 'plan';
    const watch = watchTransactionBegins(pool);
    try {
      const done: number[] = [];
      start(queue(), {
        queue: name,
        concurrency: 4,
        leaseMs: 30_000,
        handle: (job: Job<{ n: number }>) => {
          done.push(job.payload.n);
          return Promise.resolve();
        },
      });
      await enqueue([{ queue: name, payload: { n: 1 } }]);
      await eventually(async () => done.length === 1 && (await remaining(name)) === 0);
    } finally {
      watch.stop();
    }
    // Every transaction on the pool here is a claim (handlers and completions run without one).
    expect(watch.begins.length).toBeGreaterThan(0);
    for (const begin of watch.begins) expect(begin).toBe(beginWith(READ_IN_INDEX_ORDER));
  });

  it('hands claimed jobs to handleBatch at most batchSize at a time, each once, and completes those left unsettled', async () => {
    const name = 'batches';
    const sizes: number[] = [];
    const seen: number[] = [];
    start(queue(), {
      queue: name,
      concurrency: 12,
      batchSize: 5,
      leaseMs: 30_000,
      pollMs: 60_000,
      handleBatch: async (jobs: Job<{ n: number }>[]) => {
        sizes.push(jobs.length);
        seen.push(...jobs.map((job) => job.payload.n));
        // Half settled by the handler's own transaction, half left for the worker to complete.
        const settled = jobs.filter((job) => job.payload.n % 2 === 0);
        await db.transaction(async (manager) => {
          expect(await holdJobs(manager, settled)).toHaveLength(settled.length);
          expect(await completeJobs(manager, settled)).toHaveLength(settled.length);
        });
      },
    });
    await enqueue(Array.from({ length: 40 }, (_, n) => ({ queue: name, payload: { n } })));
    await eventually(async () => seen.length === 40 && (await remaining(name)) === 0);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5);
    expect(sizes.some((size) => size > 1)).toBe(true);
  });

  it('claims into the slot of a job its handler reports done while the rest of its batch runs', async () => {
    const name = 'done-early';
    const started: number[] = [];
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    start(queue(), {
      queue: name,
      concurrency: 2,
      batchSize: 2,
      leaseMs: 30_000,
      pollMs: 60_000,
      handleBatch: async (jobs: Job<{ n: number }>[]) => {
        started.push(...jobs.map((job) => job.payload.n));
        if (jobs.length < 2) return;
        const [first, second] = jobs;
        await db.transaction(async (manager) => {
          await holdJobs(manager, [first]);
          await completeJobs(manager, [first]);
        });
        first.done();
        await gate;
        await second.complete(pool);
      },
    });
    await enqueue([0, 1, 2].map((n) => ({ queue: name, payload: { n } })));
    // The batch of two still runs (its second job waits), yet the third job has its slot.
    await eventually(() => started.length === 3);
    expect(await remaining(name)).toBe(1);
    release();
    await eventually(async () => (await remaining(name)) === 0);
  });

  it('runs only the slots its priority allows, and claims the rest as soon as the share grows', async () => {
    const name = 'yielding';
    let limit = 2;
    let raise = () => undefined as void;
    const priority = {
      limit: (concurrency: number) => Math.min(limit, concurrency),
      onRaise: (listener: () => void) => {
        raise = listener;
        return () => (raise = () => undefined);
      },
    };
    let running = 0;
    let mostRunning = 0;
    const release: Array<() => void> = [];
    start(queue(), {
      queue: name,
      concurrency: 8,
      leaseMs: 30_000,
      pollMs: 60_000, // no timer to lean on: only a finishing job or the raise claims again
      priority,
      handle: async () => {
        running++;
        mostRunning = Math.max(mostRunning, running);
        await new Promise<void>((done) => release.push(done));
        running--;
      },
    });
    await enqueue(Array.from({ length: 6 }, (_, n) => ({ queue: name, payload: { n } })));
    await eventually(() => running === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running).toBe(2); // four due jobs wait while the share is low
    limit = 8;
    raise();
    await eventually(() => running === 6);
    release.splice(0).forEach((done) => done());
    await eventually(async () => (await remaining(name)) === 0);
    expect(mostRunning).toBe(6);
  });

  /** A worker that records each job's `n` and finishes it at once; claims on a wake-up only. */
  function recordingWorker(name: string, concurrency: number) {
    const seen: number[] = [];
    const worker = start(queue(), {
      queue: name,
      concurrency,
      leaseMs: 30_000,
      pollMs: 60_000,
      handle: (job: Job<{ n: number }>) => Promise.resolve(void seen.push(job.payload.n)),
    });
    return { worker, seen };
  }

  /** A worker whose jobs record their start and run until `release()`; claims on a wake-up only. */
  function gatedWorker(name: string, concurrency: number) {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const runs: Array<{ n: number; attempts: number }> = [];
    const counts = { running: 0, mostRunning: 0 };
    const worker = start(queue(), {
      queue: name,
      concurrency,
      leaseMs: 30_000,
      pollMs: 60_000,
      handle: async (job: Job<{ n: number }>) => {
        counts.running++;
        counts.mostRunning = Math.max(counts.mostRunning, counts.running);
        runs.push({ n: job.payload.n, attempts: job.attempts });
        await gate;
        counts.running--;
      },
    });
    return { worker, runs, counts, release: () => release() };
  }

  /** A reservation of `count`, once the worker has started: none is granted before. */
  async function grantedOnceStarted(worker: WorkQueueWorker, count: number) {
    let reservation = NO_RESERVATION;
    await eventually(() => (reservation = worker.reserve(count)).count === count);
    return reservation;
  }

  /** What a producer does on a reservation: its jobs inserted, the first `count` claimed. */
  async function insertOnReservation(
    name: string,
    reservation: JobReservation,
    payloads: unknown[],
    { wake = true } = {},
  ): Promise<ClaimedRow[]> {
    const { rows } = await pool.query<ClaimedRow>(
      `INSERT INTO wq.jobs (queue, payload, attempts, locked_until, locked_by)
       SELECT $1, payload, ${claimedOnInsert('n', 3)}
       FROM unnest($2::jsonb[]) WITH ORDINALITY AS t(payload, n) ORDER BY n
       RETURNING id::text AS id, queue, payload, attempts, run_at, locked_by`,
      [name, payloads.map((payload) => JSON.stringify(payload)), ...reservation.params],
    );
    // Those left unclaimed are for any worker: woken as for jobs enqueued.
    if (wake && payloads.length > reservation.count) wakeQueue(pool, SCHEMA, name);
    return rows.filter((row) => row.attempts === 1);
  }

  it('runs the jobs a producer inserted claimed on a reservation, whose slots count as running until then', async () => {
    const name = 'reserved';
    const { worker, runs, counts, release } = gatedWorker(name, 4);
    await enqueue([{ queue: name, payload: { n: 0 } }]);
    await eventually(() => counts.running === 1);

    const reservation = worker.reserve(10);
    expect(reservation.count).toBe(3);
    expect(worker.reserve(1).count).toBe(0);
    const claimed = await insertOnReservation(
      name,
      reservation,
      [1, 2, 3, 4, 5].map((n) => ({ n })),
    );
    expect(claimed.map((row) => (row.payload as { n: number }).n)).toEqual([1, 2, 3]);
    // Claimed under the worker's presence, so they are its own until it adopts them.
    expect(reservation.params[2]).not.toBeNull();
    for (const row of claimed) expect(row).toMatchObject({ locked_by: reservation.params[2] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(counts.running).toBe(1); // nothing claimed into the reserved slots meanwhile
    reservation.adopt(claimed);
    await eventually(() => counts.running === 4);
    release();
    await eventually(async () => (await remaining(name)) === 0 && runs.length === 6);
    expect(counts.mostRunning).toBe(4);
    expect(runs.map((run) => run.n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(runs.every((run) => run.attempts === 1)).toBe(true);
  });

  it('grants no reservation while jobs queued before it wait unclaimed, so they start first', async () => {
    const name = 'reserved-behind';
    const { worker, runs, release } = gatedWorker(name, 4);
    const reservation = await grantedOnceStarted(worker, 2);
    // No NOTIFY: only the producer's word tells the worker that job 3 waits in the table.
    const claimed = await insertOnReservation(
      name,
      reservation,
      [1, 2, 3].map((n) => ({ n })),
      {
        wake: false,
      },
    );
    reservation.adopt(claimed, true);
    expect(worker.reserve(1).count).toBe(0); // two slots are free, but job 3 comes first
    await eventually(() => runs.length === 3);
    expect(runs.map((run) => run.n).sort()).toEqual([1, 2, 3]);
    // The claim that took job 3 found the table empty: reservations are granted again.
    await eventually(() => worker.reserve(1).count === 1);
    release();
  });

  it('grants no reservation while a claim is running, whose answer may be a backlog', async () => {
    const name = 'reserved-while-claiming';
    const { worker, seen } = recordingWorker(name, 8);
    (await grantedOnceStarted(worker, 1)).release();
    await enqueueJobs(pool, SCHEMA, [{ queue: name, payload: { n: 1 } }]);
    // The next claim waits on this lock until the test lets it go.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE wq.jobs IN ACCESS EXCLUSIVE MODE');
    try {
      wakeQueue(pool, SCHEMA, name);
      await eventually(async () => {
        const { rows } = await pool.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND query LIKE '%picked AS MATERIALIZED%'`,
        );
        return rows[0].n > 0;
      });
      expect(worker.reserve(1).count).toBe(0);
    } finally {
      await blocker.query('COMMIT');
      blocker.release();
    }
    await eventually(() => seen.length === 1);
    await eventually(() => {
      const reservation = worker.reserve(1);
      reservation.release();
      return reservation.count === 1;
    });
  });

  it('frees the slots of a released reservation, and claims into them', async () => {
    const name = 'reserved-released';
    const { worker, seen } = recordingWorker(name, 2);
    const reservation = await grantedOnceStarted(worker, 2);
    await enqueue([{ queue: name, payload: { n: 1 } }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([]); // every slot is reserved
    reservation.release(); // say the producer's transaction rolled back
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([1]);
  });

  it('takes over the jobs inserted claimed for a worker that stopped before adopting them', async () => {
    const name = 'reserved-orphaned';
    const first = queue();
    const worker = start(first, {
      queue: name,
      concurrency: 2,
      leaseMs: 600_000,
      handle: () => Promise.resolve(),
    });
    const reservation = await grantedOnceStarted(worker, 2);
    const claimed = await insertOnReservation(name, reservation, [{ n: 1 }, { n: 2 }]);
    expect(claimed).toHaveLength(2);
    await first.stop();
    reservation.adopt(claimed); // too late: nothing runs on a stopped worker
    const seen: number[] = [];
    start(queue(), {
      queue: name,
      concurrency: 2,
      leaseMs: 30_000,
      handle: (job: Job) => Promise.resolve(void seen.push(job.attempts)),
    });
    await eventually(async () => (await remaining(name)) === 0, 10_000);
    expect(seen).toEqual([2, 2]);
  });

  it('holdJobs and completeJobs leave out a job whose lease another worker took over', async () => {
    const name = 'batch-fencing';
    await enqueue([
      { queue: name, payload: { n: 1 } },
      { queue: name, payload: { n: 2 } },
    ]);
    const { rows } = await pool.query<ClaimedRow>(
      `UPDATE wq.jobs SET locked_until = now() + interval '1 minute', attempts = attempts + 1
       WHERE queue = $1 RETURNING id::text AS id, queue, payload, attempts, run_at`,
      [name],
    );
    const [mine, lost] = rows.map((row) => new ClaimedJob(SCHEMA, row));
    // Another worker claims `lost` after this one's lease ran out.
    await pool.query('UPDATE wq.jobs SET attempts = attempts + 1 WHERE id = $1', [lost.id]);
    await db.transaction(async (manager) => {
      expect(await holdJobs(manager, [lost, mine])).toEqual([mine]);
      expect(await completeJobs(manager, [mine, lost])).toEqual([mine]);
    });
    expect(mine.settled).toBe(true);
    expect(lost.settled).toBe(false);
    expect(await remaining(name)).toBe(1);
  });

  it('refuses a worker with both handle and handleBatch, or neither', () => {
    const options = { queue: 'misconfigured', concurrency: 1, leaseMs: 1000 };
    const handle = () => Promise.resolve();
    expect(() => queue().start(options)).toThrow('exactly one of handle and handleBatch');
    expect(() => queue().start({ ...options, handle, handleBatch: handle })).toThrow(
      'exactly one of handle and handleBatch',
    );
  });

  it("processes again a job whose worker died, and fences the dead worker's late completion", async () => {
    const name = 'lease-expired';
    await enqueue([{ queue: name, payload: { n: 1 } }]);
    // A worker claims the job (with a short lease) and dies without finishing it.
    const { rows } = await pool.query<ClaimedRow>(
      `UPDATE wq.jobs SET locked_until = now() + interval '300 milliseconds', attempts = attempts + 1
       WHERE queue = $1 RETURNING id::text AS id, queue, payload, attempts, run_at`,
      [name],
    );
    const dead = new ClaimedJob(SCHEMA, rows[0]);

    const seen: number[] = [];
    start(queue(), {
      queue: name,
      concurrency: 2,
      leaseMs: 30_000,
      pollMs: 100,
      handle: async (job: Job) => {
        seen.push(job.attempts);
        await db.transaction((manager) => job.complete(manager));
      },
    });
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([2]);
    await expect(dead.complete(pool)).rejects.toBeInstanceOf(JobLeaseLostError);
    await expect(dead.hold(pool)).rejects.toBeInstanceOf(JobLeaseLostError);
    await expect(dead.retryAt(pool, new Date())).rejects.toBeInstanceOf(JobLeaseLostError);
  });

  it("takes over a dead worker's running job as soon as its process is gone, long before its lease", async () => {
    const name = 'owner-gone';
    await enqueue([{ queue: name, payload: { n: 1 } }]);
    // Another process's worker: its presence lock on its own connection, then a claim under it
    // with a lease of ten minutes.
    const other = new Client({ connectionString: postgres.url });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1, $2)', [PRESENCE_NAMESPACE, 424242]);
    const { rows } = await pool.query<ClaimedRow>(
      `UPDATE wq.jobs SET locked_until = now() + interval '10 minutes', attempts = attempts + 1,
         locked_by = 424242
       WHERE queue = $1 RETURNING id::text AS id, queue, payload, attempts, run_at`,
      [name],
    );
    const dead = new ClaimedJob(SCHEMA, rows[0]);
    const seen: number[] = [];
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 100,
      handle: async (job: Job) => {
        seen.push(job.attempts);
        await db.transaction((manager) => job.complete(manager));
      },
    });
    // While that process lives, its job is its own, whatever this worker's looks find.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(seen).toEqual([]);
    await other.end(); // the process dies: the server ends its session and the lock with it
    await eventually(() => seen.length === 1, 5000);
    expect(seen).toEqual([2]);
    await expect(dead.complete(pool)).rejects.toBeInstanceOf(JobLeaseLostError);
  });

  it('claims under its own presence, which a live worker keeps', async () => {
    const name = 'owner-stamped';
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      handle: async (job: Job) => {
        started.push(job.id);
        await gate;
      },
    });
    await enqueue([{ queue: name, payload: {} }]);
    await eventually(() => started.length === 1);
    const owner = async () =>
      (
        await pool.query<{ locked_by: number | null; attempts: number }>(
          'SELECT locked_by, attempts FROM wq.jobs WHERE id = $1',
          [started[0]],
        )
      ).rows[0];
    const { locked_by: lockedBy } = await owner();
    expect(lockedBy).not.toBeNull();
    const held = await pool.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
         AND classid::bigint = $1 AND objid::bigint = $2`,
      [PRESENCE_NAMESPACE, lockedBy],
    );
    expect(held.rowCount).toBe(1);
    // Several looks for orphans later (one every two seconds), the job is still this worker's.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(await owner()).toEqual({ locked_by: lockedBy, attempts: 1 });
    release();
    await eventually(async () => (await remaining(name)) === 0);
  });

  it('does not claim a job before its run_at and claims it after', async () => {
    const name = 'scheduled';
    const runAt = new Date(Date.now() + 1500);
    const ranAt: number[] = [];
    // pollMs far beyond run_at: the worker must wake for the job's own time.
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 60_000,
      handle: async (job: Job) => {
        ranAt.push(Date.now());
        expect(job.runAt.getTime()).toBe(runAt.getTime());
        await job.complete(pool);
      },
    });
    await enqueue([{ queue: name, payload: {}, runAt }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ranAt).toEqual([]);
    await eventually(() => ranAt.length === 1);
    expect(ranAt[0]).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });

  it('reschedules a job with retryAt, with a new payload and its attempts kept', async () => {
    const name = 'retry-at';
    const runs: Array<{ attempts: number; payload: unknown; at: number }> = [];
    let retryAt = 0;
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 60_000,
      handle: async (job: Job<{ step: number }>) => {
        runs.push({ attempts: job.attempts, payload: job.payload, at: Date.now() });
        await db.transaction(async (manager) => {
          if (job.payload.step === 1) {
            retryAt = Date.now() + 400;
            await job.retryAt(manager, new Date(retryAt), { step: 2 });
          } else {
            await job.complete(manager);
          }
        });
      },
    });
    await enqueue([{ queue: name, payload: { step: 1 } }]);
    await eventually(() => runs.length === 2);
    expect(runs.map(({ attempts, payload }) => ({ attempts, payload }))).toEqual([
      { attempts: 1, payload: { step: 1 } },
      { attempts: 2, payload: { step: 2 } },
    ]);
    expect(runs[1].at).toBeGreaterThanOrEqual(retryAt - 5);
    await eventually(async () => (await remaining(name)) === 0);
  });

  it('reschedules a throwing handler with back-off and records last_error', async () => {
    const name = 'throws';
    const seen: Array<{ attempts: number; lastError: string | null; delayMs: number }> = [];
    let failedAt = 0;
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 60_000,
      backoffBaseMs: 400,
      handle: async (job: Job) => {
        const { rows } = await pool.query<{ last_error: string | null }>(
          'SELECT last_error FROM wq.jobs WHERE id = $1',
          [job.id],
        );
        seen.push({
          attempts: job.attempts,
          lastError: rows[0].last_error,
          delayMs: Date.now() - failedAt,
        });
        if (job.attempts === 1) {
          failedAt = Date.now();
          throw new Error('mail server unreachable');
        }
      },
    });
    await enqueue([{ queue: name, payload: {} }]);
    await eventually(async () => seen.length === 2 && (await remaining(name)) === 0);
    expect(seen[0]).toMatchObject({ attempts: 1, lastError: null });
    expect(seen[1]).toMatchObject({ attempts: 2, lastError: 'mail server unreachable' });
    // The back-off of the first failure is the base delay (the handler returning completes the job).
    expect(seen[1].delayMs).toBeGreaterThanOrEqual(350);
  });

  it('leaves nothing behind when the enqueuing transaction rolls back', async () => {
    const name = 'rolled-back';
    const ran: string[] = [];
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      handle: (job: Job) => Promise.resolve(void ran.push(job.id)),
    });
    await expect(
      db.transaction(async (manager) => {
        await enqueueJobs(manager, SCHEMA, [{ queue: name, payload: { n: 1 } }]);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await remaining(name)).toBe(0);
    expect(ran).toEqual([]);
  });

  it('stop() waits for the running handlers and claims nothing more', async () => {
    const name = 'stopping';
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const finished: string[] = [];
    const worker = queue().start({
      queue: name,
      concurrency: 2,
      leaseMs: 30_000,
      handle: async (job: Job) => {
        started.push(job.id);
        await gate;
        await job.complete(pool);
        finished.push(job.id);
      },
    });
    await enqueue([
      { queue: name, payload: { n: 1 } },
      { queue: name, payload: { n: 2 } },
    ]);
    await eventually(() => started.length === 2);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await enqueue([{ queue: name, payload: { n: 3 } }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toHaveLength(2);
    expect(started).toHaveLength(2);
    expect(await remaining(name)).toBe(1);
  });

  it('renews the lease of a long-running job so no other worker takes it over', async () => {
    const name = 'renewed';
    const runs: number[] = [];
    const handle = async (job: Job) => {
      runs.push(job.attempts);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await job.complete(pool);
    };
    start(queue(), { queue: name, concurrency: 1, leaseMs: 300, pollMs: 50, handle });
    start(queue(), { queue: name, concurrency: 1, leaseMs: 300, pollMs: 50, handle });
    await enqueue([{ queue: name, payload: {} }]);
    await eventually(async () => runs.length === 1 && (await remaining(name)) === 0);
    expect(runs).toEqual([1]);
  });

  it('reconnects its LISTEN connection and wakes on notifications again', async () => {
    const name = 'reconnect';
    const ran: string[] = [];
    start(queue(), {
      queue: name,
      concurrency: 1,
      leaseMs: 30_000,
      pollMs: 60_000,
      handle: (job: Job) => Promise.resolve(void ran.push(job.id)),
    });
    const listeners = async () =>
      (
        await pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN "wq_jobs"'`,
        )
      ).rows.map((row) => row.pid);
    await eventually(async () => (await listeners()).length === 1);
    const [before] = await listeners();
    await pool.query('SELECT pg_terminate_backend($1)', [before]);
    await eventually(async () => {
      const now = await listeners();
      return now.length === 1 && now[0] !== before;
    });
    await enqueue([{ queue: name, payload: {} }]);
    await eventually(() => ran.length === 1, 5000);
  });
});
