import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { ClientEndpoint } from './client-endpoint';
import { SocketIoEndpoint } from './socket-io-endpoint';
import { CommonErrors } from '@switchboard/contracts';

/**
 * Distributed mode: the realtime process's own client port (REALTIME_CLIENT_PORT, 8090 by
 * default, the port deploy/ and compose route `/app` and `/realtime/socket.io` to). Anything else
 * on it is a 404 envelope. The embedded default serves the endpoints on the API port instead.
 */
@Injectable()
export class ClientListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RealtimeClients');
  private server?: Server;

  constructor(
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly websocket: ClientEndpoint,
    private readonly socketIo: SocketIoEndpoint,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.TRANSPORT !== 'nats') return;
    const server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            type: 'not_found_error',
            code: CommonErrors.RouteNotFound,
            name: 'RouteNotFound',
            message: 'Realtime clients connect to /app/{key} or /realtime/socket.io here.',
          },
        }),
      );
    });
    this.websocket.attach(server);
    this.socketIo.attach(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.REALTIME_CLIENT_PORT, '0.0.0.0', () => resolve());
    });
    this.server = server;
    this.logger.log(`realtime clients on port ${this.config.REALTIME_CLIENT_PORT}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
