import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** Errors that mean nothing listens at the upstream (yet): a process restarting, a pod starting. */
const NOT_LISTENING = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND']);
const PROBE_INTERVAL_MS = 100;

/**
 * TCP connections to one upstream (the realtime process) that ride out its restart: while it does
 * not accept, a connect waits (up to `holdMs`) and is made as soon as it accepts again, instead of
 * failing at once. A client refused at once backs off (the official client for 1, 2, 4... s at
 * random), so it came back seconds after the service; held, it is connected within one probe
 * interval of it. One prober serves every waiting connect: a thousand clients reconnecting during
 * an outage cost one connection attempt per interval, not a thousand.
 */
export class UpstreamConnector {
  private readonly waiters = new Set<() => void>();
  private probing = false;

  constructor(
    private readonly port: number,
    private readonly host: string,
    private readonly holdMs: number,
  ) {}

  /**
   * A connected socket, or the last error once `holdMs` passed (or `abandoned` resolved: the
   * client went away) without the upstream accepting.
   */
  async connect(abandoned?: Promise<unknown>): Promise<Socket> {
    const deadline = Date.now() + this.holdMs;
    let gaveUp = false;
    void abandoned?.then(() => (gaveUp = true));
    for (;;) {
      try {
        return await this.attempt();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? '';
        if (gaveUp || !NOT_LISTENING.has(code) || Date.now() >= deadline) throw err;
        await this.untilAccepting(deadline, abandoned);
      }
    }
  }

  private attempt(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, this.host);
      socket.once('connect', () => {
        socket.removeListener('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  /** Resolves when the shared probe connects, at the deadline, or when the client goes away. */
  private untilAccepting(deadline: number, abandoned?: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      void abandoned?.then(done);
      this.waiters.add(done);
      this.probe();
    });
  }

  private probe(): void {
    if (this.probing) return;
    this.probing = true;
    const tick = () => {
      if (this.waiters.size === 0) {
        this.probing = false;
        return;
      }
      this.attempt().then(
        (socket) => {
          socket.destroy();
          this.probing = false;
          for (const waiter of [...this.waiters]) waiter();
        },
        () => setTimeout(tick, PROBE_INTERVAL_MS),
      );
    };
    setTimeout(tick, PROBE_INTERVAL_MS);
  }
}
