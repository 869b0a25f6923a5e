import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { RealtimeEngine } from './engine';

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
  | { kind: 'disconnect-member'; appId: string; memberId: string; code: number };

const FANOUT_SUBJECT = 'realtime.cluster.fanout';

/**
 * Makes several realtime processes act as one for deliveries and closes: a command (a publish, a
 * revoked key, a deleted app, a member disconnect) goes out once on NATS to every realtime
 * process (a plain subscription, not a queue group), each applying it to the connections it
 * holds, one path for both transports. In the embedded default there is one process and the
 * command is applied at once.
 */
@Injectable()
export class RealtimeCluster implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RealtimeCluster');
  private nats?: NatsConnection;
  private subscription?: Subscription;

  constructor(
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly engine: RealtimeEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.TRANSPORT !== 'nats') return;
    this.nats = await connect({
      servers: this.config.NATS_URL.split(',').map((server) => server.trim()),
      maxReconnectAttempts: -1,
      name: 'realtime-cluster',
    });
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
    // Our own subscription must be in place before we answer: the first publish reaches us too.
    await this.nats.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    await this.nats?.drain().catch(() => undefined);
  }

  /** Applies the command on every realtime process (this one included). */
  async send(command: ClusterCommand): Promise<void> {
    if (!this.nats) return this.apply(command);
    this.nats.publish(FANOUT_SUBJECT, JSON.stringify(command));
    await this.nats.flush();
  }

  private apply(command: ClusterCommand): void {
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
    }
  }
}
