import type { Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { PresenceChange, RealtimeEngine } from './engine';
import type { PresenceEntry } from './remote-presence';

const PRESENCE_SUBJECT = 'realtime.cluster.presence';
const SNAPSHOT_SUBJECT = 'realtime.cluster.presence.snapshot';
/** At start-up, after the first snapshot, the wait for more: a quiet gap ends the gather. */
const SNAPSHOT_STALL_MS = 100;
const SNAPSHOT_MAX_MS = 2000;

type PresenceMessage =
  | ({ kind: 'join' | 'leave'; process: string } & PresenceEntry)
  | { kind: 'heartbeat' | 'bye'; process: string };

interface Snapshot {
  process: string;
  entries: PresenceEntry[];
}

/**
 * Keeps every realtime process's view of presence whole: each announces its members' first
 * joins and last leaves on NATS, answers snapshots of what it holds (taken by a process at
 * start-up, and of a process heard from for the first time), and heartbeats. A process not heard
 * from for the peer time-out (a SIGKILL, a partition) is taken as gone: its members leave
 * everywhere, with `member_removed` where they are gone from every process. A process that
 * stops cleanly says `bye` and its members leave at once.
 */
export class ClusterPresence {
  /** Other realtime processes, by tag: when each was last heard from. */
  private readonly peers = new Map<string, number>();
  private readonly subscriptions: Subscription[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly nats: NatsConnection,
    private readonly engine: RealtimeEngine,
    private readonly peerTimeoutMs: number,
    private readonly logger: Logger,
  ) {}

  private get self(): string {
    return this.engine.processTag;
  }

  async start(): Promise<void> {
    const answerSnapshot = (err: Error | null, message: { respond(data: string): boolean }) => {
      if (err) return;
      const snapshot: Snapshot = { process: this.self, entries: this.engine.localPresence() };
      message.respond(JSON.stringify(snapshot));
    };
    this.subscriptions.push(
      this.nats.subscribe(PRESENCE_SUBJECT, {
        callback: (err, message) => {
          if (!err) this.receive(message.json<PresenceMessage>());
        },
      }),
      this.nats.subscribe(SNAPSHOT_SUBJECT, { callback: answerSnapshot }),
      this.nats.subscribe(`${SNAPSHOT_SUBJECT}.${this.self}`, { callback: answerSnapshot }),
    );
    this.engine.onPresenceChange((change) => this.announce(change));
    await this.nats.flush();
    // Our own snapshot answers too, so the gather always has a first answer to stall after.
    const answers = await this.nats.requestMany(SNAPSHOT_SUBJECT, '', {
      strategy: 'stall',
      stall: SNAPSHOT_STALL_MS,
      maxWait: SNAPSHOT_MAX_MS,
    });
    for await (const answer of answers) this.applySnapshot(answer.json<Snapshot>());
    this.publish({ kind: 'heartbeat', process: this.self });
    this.timer = setInterval(() => this.tick(), Math.max(100, this.peerTimeoutMs / 3));
    this.timer.unref();
  }

  /** Tells the others this process's members are gone (its connections close with it). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.engine.onPresenceChange(() => undefined);
    this.publish({ kind: 'bye', process: this.self });
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    await this.nats.flush().catch(() => undefined);
  }

  private announce(change: PresenceChange): void {
    this.publish({ ...change, process: this.self });
  }

  private receive(message: PresenceMessage): void {
    const { process } = message;
    if (process === this.self) return;
    if (message.kind === 'bye') return this.forget(process, 'stopped');
    const known = this.peers.has(process);
    this.peers.set(process, Date.now());
    // A process we did not know (new, or back after being taken as gone): what does it hold?
    if (!known) void this.fetchSnapshot(process);
    if (message.kind === 'join') this.engine.remoteJoined(process, message);
    else if (message.kind === 'leave') this.engine.remoteLeft(process, message);
  }

  private async fetchSnapshot(process: string): Promise<void> {
    try {
      const answer = await this.nats.request(`${SNAPSHOT_SUBJECT}.${process}`, '', {
        timeout: SNAPSHOT_MAX_MS,
      });
      this.applySnapshot(answer.json<Snapshot>());
    } catch (err) {
      this.logger.warn(`no presence snapshot from realtime process ${process}: ${String(err)}`);
    }
  }

  private applySnapshot(snapshot: Snapshot): void {
    if (snapshot.process === this.self) return;
    this.peers.set(snapshot.process, Date.now());
    this.engine.replaceRemote(snapshot.process, snapshot.entries);
  }

  private tick(): void {
    this.publish({ kind: 'heartbeat', process: this.self });
    const silentSince = Date.now() - this.peerTimeoutMs;
    for (const [process, heard] of [...this.peers])
      if (heard < silentSince) this.forget(process, `not heard from in ${this.peerTimeoutMs} ms`);
  }

  private forget(process: string, why: string): void {
    if (!this.peers.delete(process)) return;
    this.logger.warn(`realtime process ${process} ${why}: its presence members leave`);
    this.engine.replaceRemote(process, []);
  }

  private publish(message: PresenceMessage): void {
    try {
      this.nats.publish(PRESENCE_SUBJECT, JSON.stringify(message));
    } catch (err) {
      // Closing or reconnecting: the heartbeats and snapshots repair what this misses.
      this.logger.warn(`presence announcement not sent: ${String(err)}`);
    }
  }
}
