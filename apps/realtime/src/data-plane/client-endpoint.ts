import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { ClientKeys } from './client-keys';
import { RealtimeEngine } from './engine';
import type { ClientConnection } from './engine';
import { FrameHandler } from './frame-handler';
import {
  CloseCodes,
  DROP_GRACE_MS,
  encodeFrame,
  errorFrame,
  LIMITS,
  ServerEvents,
} from './protocol';
import type { Frame } from './protocol';
import { SOCKET_IO_PATH } from './socket-io-endpoint';

const PATH = /^\/app\/([^/?#]+)(?:[?#].*)?$/;

/** The key of an `/app/{key}` path, or null when its percent-encoding is broken. */
function keyIdOf(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

function dropSocket(this: Duplex): void {
  this.destroy();
}
/** Frames larger than this are not even read (the socket closes with 1009). */
const HARD_FRAME_LIMIT = 256 * 1024;
/** How long a client has to answer the server's ping. */
const PONG_TIMEOUT_MS = 30_000;

/**
 * The official client's endpoint, `ws://<host>/app/{key}`: the handshake, frames, ping/pong and
 * the activity time-out, over the `ws` package, attached to an HTTP server's upgrade (the
 * gateway's in the embedded default). Each socket is one engine connection.
 */
@Injectable()
export class ClientEndpoint implements OnApplicationShutdown {
  private readonly logger = new Logger('RealtimeClients');
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_LIMIT });
  private readonly servers: Server[] = [];

  constructor(
    private readonly engine: RealtimeEngine,
    private readonly keys: ClientKeys,
    private readonly frames: FrameHandler,
  ) {}

  /** Serves `/app/{key}` upgrades on `server`; other upgrade paths are left to other handlers. */
  attach(server: Server): void {
    this.servers.push(server);
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const match = PATH.exec(request.url ?? '');
      if (!match) {
        // socket.io answers its own path; no other path takes a WebSocket.
        if (!(request.url ?? '').startsWith(SOCKET_IO_PATH)) socket.destroy();
        return;
      }
      // Node stops listening for the socket's errors once it is upgraded, and `ws` starts only
      // in handleUpgrade: a reset while the key is looked up would be an uncaught 'error'.
      socket.on('error', dropSocket);
      void this.upgrade(request, socket, head, keyIdOf(match[1]));
    });
  }

  onApplicationShutdown(): void {
    for (const client of this.wss.clients) client.close(1001, 'server shutting down');
    this.wss.close();
  }

  /** `keyId` null: the path held no key (broken percent-encoding), refused like an unknown one. */
  private async upgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    keyId: string | null,
  ) {
    const key =
      keyId === null
        ? undefined
        : await this.keys.active(keyId).catch((err: Error) => {
            this.logger.warn(`looking up a realtime key failed: ${err.message}`);
            return undefined;
          });
    if (socket.destroyed) return;
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      socket.off('error', dropSocket);
      if (!key) {
        ws.send(encodeFrame(errorFrame(CloseCodes.KeyRefused, 'Unknown or revoked app key')));
        ws.close(CloseCodes.KeyRefused, 'app key refused');
        return;
      }
      this.serve(ws, {
        id: this.engine.newConnectionId(),
        appId: key.appId,
        keyId: key.keyId,
        secret: key.secret,
        send: (frame: Frame) => {
          if (ws.readyState === ws.OPEN) ws.send(encodeFrame(frame));
        },
        close: (code: number, reason: string) => ws.close(code, reason),
        unsentBytes: () => ws.bufferedAmount,
        drop: (code: number, reason: string) => {
          ws.close(code, reason);
          setTimeout(() => ws.readyState === ws.CLOSED || ws.terminate(), DROP_GRACE_MS).unref();
        },
      });
    });
  }

  private serve(ws: WebSocket, connection: ClientConnection): void {
    let pongTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    const heard = () => {
      clearTimeout(idleTimer);
      clearTimeout(pongTimer);
      idleTimer = setTimeout(() => {
        connection.send({ event: ServerEvents.Ping, data: {} });
        pongTimer = setTimeout(
          () => ws.close(CloseCodes.ActivityTimeout, 'activity timeout'),
          PONG_TIMEOUT_MS,
        );
      }, LIMITS.activityTimeoutSeconds * 1000);
    };
    ws.on('message', (raw: Buffer, isBinary: boolean) => {
      heard();
      this.frames.receive(connection, raw, isBinary);
    });
    ws.on('close', () => {
      clearTimeout(idleTimer);
      clearTimeout(pongTimer);
      this.engine.closed(connection.id);
    });
    ws.on('error', () => ws.terminate());
    this.engine.open(connection);
    heard();
  }
}
