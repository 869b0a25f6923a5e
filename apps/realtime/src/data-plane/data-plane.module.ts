import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { ActiveKeyCache } from './active-key-cache';
import { ClientEndpoint } from './client-endpoint';
import { ClientKeys } from './client-keys';
import { ClientKeysRepository } from './client-keys.repository';
import { DataPlaneHandler } from './data-plane.handler';
import { DataPlaneService } from './data-plane.service';
import { RealtimeEngine } from './engine';
import { ClientListener } from './client-listener';
import { FrameHandler } from './frame-handler';
import { RealtimeCluster } from './realtime-cluster';
import { SocketIoEndpoint } from './socket-io-endpoint';
import { StalledConnections } from './stalled-connections';

/**
 * The realtime data plane: the engine of this process, the official client's endpoint and the
 * REST operations (publish, channels, members).
 */
@Module({})
export class DataPlaneModule {
  static register(config: RealtimeConfig): DynamicModule {
    return {
      module: DataPlaneModule,
      // One engine per process, shared with the control plane (revocations close connections).
      global: true,
      controllers: [DataPlaneHandler],
      providers: [
        DataPlaneService,
        { provide: REALTIME_CONFIG, useValue: config },
        { provide: RealtimeEngine, useValue: new RealtimeEngine() },
        { provide: ActiveKeyCache, useValue: new ActiveKeyCache() },
        ClientKeysRepository,
        ClientKeys,
        FrameHandler,
        ClientEndpoint,
        SocketIoEndpoint,
        RealtimeCluster,
        ClientListener,
        StalledConnections,
      ],
      exports: [RealtimeEngine, RealtimeCluster, ClientKeys, ClientEndpoint, SocketIoEndpoint],
    };
  }
}
