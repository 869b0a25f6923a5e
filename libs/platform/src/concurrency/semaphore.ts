/** At most `limit` tasks at once; the others wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task: `active` stays as it is.
      if (next) next();
      else this.active--;
    }
  }

  /** Nothing running and nothing waiting. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}

/** One semaphore per key, each with the same limit; a key's entry goes once it is idle. */
export class KeyedSemaphore {
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(private readonly limit: number) {}

  async use<T>(key: string, task: () => Promise<T>): Promise<T> {
    let semaphore = this.semaphores.get(key);
    if (!semaphore) {
      semaphore = new Semaphore(this.limit);
      this.semaphores.set(key, semaphore);
    }
    try {
      return await semaphore.use(task);
    } finally {
      if (semaphore.idle && this.semaphores.get(key) === semaphore) this.semaphores.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.semaphores.size;
  }
}
