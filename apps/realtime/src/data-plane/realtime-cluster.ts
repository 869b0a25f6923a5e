import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { ActiveKeyCache } from './active-key-cache';
import { ClusterPresence } from './cluster-presence';
import { RealtimeEngine } from './engine';
import type { LocalChannel } from './engine';

/** What every realtime process applies to its own connections. */
export type ClusterCommand =
  | {
      kind: 'publish';
      appId: string;
      channels: string[];
      event: string;
      data: unknown;
      excludeConnectionId?: string;
    }
  | { kind: 'close-key'; keyId: string; code: number; reason: string }
  | { kind: 'close-app'; appId: string }
  /** The app's settings changed: keys read before it are read again. */
  | { kind: 'app-changed'; appId: string }
  | { kind: 'disconnect-member'; appId: string; memberId: string; code: number };

const FANOUT_SUBJECT = 'realtime.cluster.fanout';
const QUERY_SUBJECT = 'realtime.cluster.channels';
/** After the first answer, the wait for more realtime processes: a quiet gap ends the gather. */
const GATHER_STALL_MS = 25;
const GATHER_MAX_MS = 1000;

/**
 * Makes several realtime processes act as one for deliveries and closes: a command (a publish, a
 * revoked key, a deleted app, a member disconnect) goes out once on NATS to every realtime
 * process (a plain subscription, not a queue group), each applying it to the connections it
 * holds, one path for both transports. Presence is kept whole across processes by
 * `ClusterPresence`. In the embedded default there is one process and the command is applied at
 * once.
 */
@Injectable()
export class RealtimeCluster implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RealtimeCluster');
  private nats?: NatsConnection;
  private subscription?: Subscription;
  private querySubscription?: Subscription;
  private presence?: ClusterPresence;

  constructor(
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly engine: RealtimeEngine,
    private readonly keys: ActiveKeyCache,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.TRANSPORT !== 'nats') return;
    this.nats = await connect({
      servers: this.config.NATS_URL.split(',').map((server) => server.trim()),
      maxReconnectAttempts: -1,
      name: 'realtime-cluster',
    });
    this.forgetKeysWhenDisconnected(this.nats).catch((err: Error) =>
      this.logger.warn(`following the NATS connection failed: ${err.message}`),
    );
    this.subscription = this.nats.subscribe(FANOUT_SUBJECT, {
      callback: (err, message) => {
        if (err) return this.logger.warn(`cluster subscription failed: ${err.message}`);
        try {
          this.apply(message.json<ClusterCommand>());
        } catch (failure) {
          this.logger.warn(`a cluster command failed: ${(failure as Error).message}`);
        }
      },
    });
    this.querySubscription = this.nats.subscribe(QUERY_SUBJECT, {
      callback: (err, message) => {
        if (err) return;
        const { appId, prefix } = message.json<{ appId: string; prefix: string }>();
        message.respond(JSON.stringify(this.engine.localChannels(appId, prefix)));
      },
    });
    // Our own subscriptions must be in place before we answer: the first publish reaches us too.
    await this.nats.flush();
    this.presence = new ClusterPresence(
      this.nats,
      this.engine,
      this.config.REALTIME_PEER_TIMEOUT_SECONDS * 1000,
      this.logger,
    );
    await this.presence.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.presence?.stop();
    this.subscription?.unsubscribe();
    this.querySubscription?.unsubscribe();
    await this.nats?.drain().catch(() => undefined);
  }

  /**
   * Applies the command on every realtime process (this one included). Keys it ends are evicted
   * here before it goes out: the caller's next request on this process reads them again.
   */
  async send(command: ClusterCommand): Promise<void> {
    if (!this.nats) return this.apply(command);
    this.forgetKeys(command);
    this.nats.publish(FANOUT_SUBJECT, JSON.stringify(command));
    await this.nats.flush();
  }

  /**
   * The app's occupied channels under `prefix` across every realtime process: subscriber counts
   * summed, presence members united (a member on two processes is one member).
   */
  async channels(
    appId: string,
    prefix = '',
  ): Promise<Array<{ name: string; connections: number; members: Set<string> }>> {
    const shares: LocalChannel[][] = [];
    if (!this.nats) shares.push(this.engine.localChannels(appId, prefix));
    else {
      const answers = await this.nats.requestMany(
        QUERY_SUBJECT,
        JSON.stringify({ appId, prefix }),
        {
          strategy: 'stall',
          stall: GATHER_STALL_MS,
          maxWait: GATHER_MAX_MS,
        },
      );
      for await (const answer of answers) shares.push(answer.json<LocalChannel[]>());
    }
    const merged = new Map<string, { name: string; connections: number; members: Set<string> }>();
    for (const share of shares)
      for (const channel of share) {
        const entry = merged.get(channel.name) ?? {
          name: channel.name,
          connections: 0,
          members: new Set<string>(),
        };
        entry.connections += channel.connections;
        for (const member of channel.members) entry.members.add(member);
        merged.set(channel.name, entry);
      }
    return [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Commands missed while NATS was away may have ended keys this process still holds. */
  private async forgetKeysWhenDisconnected(nats: NatsConnection): Promise<void> {
    for await (const status of nats.status())
      if (status.type === 'disconnect' || status.type === 'reconnect') this.keys.clear();
  }

  private forgetKeys(command: ClusterCommand): void {
    if (command.kind === 'close-key') this.keys.evictKey(command.keyId);
    else if (command.kind === 'close-app' || command.kind === 'app-changed')
      this.keys.evictApp(command.appId);
  }

  private apply(command: ClusterCommand): void {
    this.forgetKeys(command);
    switch (command.kind) {
      case 'publish':
        return this.engine.publish(
          command.appId,
          command.channels,
          command.event,
          command.data,
          command.excludeConnectionId,
        );
      case 'close-key':
        this.engine.closeByKey(command.keyId, command.code, command.reason);
        return;
      case 'close-app':
        this.engine.closeByApp(command.appId);
        return;
      case 'disconnect-member':
        this.engine.disconnectMember(command.appId, command.memberId, command.code);
        return;
      case 'app-changed':
        return;
    }
  }
}
