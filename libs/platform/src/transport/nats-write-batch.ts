/**
 * Sends a process's NATS messages of one event-loop turn together. The NATS client writes to its
 * socket once per microtask checkpoint that published something; requests and replies come from
 * separate socket reads (HTTP connections, PostgreSQL connections), so each would cost a write
 * system call of its own. Deferred to the turn's check phase (setImmediate) and published in one
 * synchronous run, those of one turn leave in one write; a message waits at most until the end of
 * the turn it was made in.
 */
export class NatsWriteBatch {
  private pending: Array<() => void> = [];
  private scheduled = false;

  add(write: () => void): void {
    this.pending.push(write);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const writes = this.pending;
    this.pending = [];
    // Each write reports its own failure (a rejected request, a logged reply).
    for (const write of writes) write();
  };
}
