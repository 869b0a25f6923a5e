/**
 * Gathers work that finishes at different moments into shared commits: `add` queues an item and
 * resolves once a `commit` call that included it resolved (or rejects with its error). Items added
 * while a commit runs wait for the next one, so under load one transaction (a fixed number of
 * statements) settles many items, and a slow item never holds back the others: what finished
 * first is committed first. Commits never overlap, unless the batcher is made with `overlap` > 1:
 * then up to that many run at once, the next one starting as soon as work waits and a place is
 * free (for a commit that waits mostly on its WAL flush). Such a `commit` must be safe to run
 * beside itself.
 *
 * `commit` may settle its items one by one by returning one entry per item: `undefined` for an
 * item it committed, the error for one it could not (so one bad item need not fail the others).
 */
/** Tries of `addPersistently` (back-off 0.4, 0.8, 1.6, 3.2, then 4 s: about 20 s in all). */
const PERSISTENT_ATTEMPTS = 8;

export class CommitBatcher<T> {
  private waiting: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  /** Commits running now. */
  private lanes = 0;
  /** A commit is about to start (at the next turn of the event loop). */
  private starting = false;

  constructor(
    private readonly commit: (items: T[]) => Promise<void | ReadonlyArray<unknown>>,
    /** Commits that may run at once: 1 (the default) never overlaps them. */
    private readonly overlap = 1,
  ) {}

  /**
   * `add`, tried again with back-off (about 20 s in all) while `retry(err)` says so: for an item
   * the outside world already acted on (a message a carrier or Meta took), which one failed
   * statement (a dropped connection, a failover) must not send a second time.
   */
  async addPersistently(item: T, retry: (err: unknown, attempt: number) => boolean): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.add(item);
      } catch (err) {
        if (attempt >= PERSISTENT_ATTEMPTS || !retry(err, attempt)) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.min(200 * 2 ** attempt, 4_000)));
      }
    }
  }

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.lanes >= this.overlap || this.starting) return;
      this.starting = true;
      // Items added in this turn of the event loop join the first commit.
      setImmediate(() => {
        this.starting = false;
        void this.drain();
      });
    });
  }

  private async drain(): Promise<void> {
    this.lanes++;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const failures = await this.commit(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => {
          const failure = failures?.[index];
          if (failure === undefined) entry.resolve();
          else entry.reject(failure);
        });
      } catch (err) {
        for (const entry of batch) entry.reject(err);
      }
    }
    this.lanes--;
  }
}

/**
 * A `CommitBatcher` commit that writes its items in one call and, if that fails and held several,
 * writes each alone: an item the database refuses then fails by itself, not its neighbours.
 * Answers one entry per item (undefined when written, else its error), as `commit` may.
 */
export async function writeTogetherOrAlone<T>(
  items: readonly T[],
  write: (items: T[]) => Promise<void>,
): Promise<unknown[]> {
  try {
    await write([...items]);
    return [];
  } catch (err) {
    if (items.length === 1) throw err;
  }
  return Promise.all(
    items.map((item) =>
      write([item]).then(
        () => undefined,
        (err: unknown) => err ?? new Error('not written'),
      ),
    ),
  );
}
