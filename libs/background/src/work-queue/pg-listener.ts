import { Client } from 'pg';
import type { ClientConfig } from 'pg';
import { backoffMs } from './backoff';

export interface PgListenerOptions {
  /** The channel to LISTEN on, exactly as `pg_notify` names it (case-sensitive). */
  channel: string;
  /** Called with each notification's payload. */
  onNotify: (payload: string) => void;
  /**
   * Called after every (re)connection once LISTEN is in place: notifications sent while no
   * connection listened are lost, so the owner looks for work it may have missed.
   */
  onListening: () => void;
  /**
   * Runs first on every new connection, before LISTEN (a session-level set-up, such as the work
   * queue's presence lock); a failure drops the connection like any other.
   */
  onConnect?: (client: Client) => Promise<void>;
  /** Called with a connection failure before the next attempt; never thrown. */
  onError?: (err: Error) => void;
  /** Delay before reconnecting, doubled up to 30 s while attempts keep failing. Default 500 ms. */
  reconnectMs?: number;
}

const MAX_RECONNECT_MS = 30_000;

/**
 * One dedicated connection that LISTENs on a channel and reconnects when it drops. It cannot
 * come from the service's pool: a pooled client would be handed to queries between uses and a
 * held one would shrink the pool for good. TCP keep-alive makes a silently dead peer visible;
 * the owners also poll, so a lost notification only delays work until the next poll.
 */
export class PgListener {
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private failures = 0;

  constructor(
    private readonly config: ClientConfig,
    private readonly options: PgListenerOptions,
  ) {}

  /** Connects in the background; resolves once the first attempt has succeeded or failed. */
  async start(): Promise<void> {
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const { client } = this;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ ...this.config, keepAlive: true });
    this.client = client;
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.onError?.(
        err ?? new Error(`LISTEN connection on ${this.options.channel} ended`),
      );
      this.scheduleReconnect();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onNotify(message.payload ?? '');
    });
    try {
      await client.connect();
      await this.options.onConnect?.(client);
      await client.query(`LISTEN "${this.options.channel.replace(/"/g, '""')}"`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (this.closed || dropped) return;
    this.failures = 0;
    this.options.onListening();
  }

  private scheduleReconnect(): void {
    this.failures++;
    const delay = backoffMs(this.failures, this.options.reconnectMs ?? 500, MAX_RECONNECT_MS);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}
