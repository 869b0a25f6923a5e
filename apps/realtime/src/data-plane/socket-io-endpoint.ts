import type { Server as HttpServer } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io';
import { ClientKeys } from './client-keys';
import type { ActiveKey } from './client-keys';
import { FrameHandler } from './frame-handler';
import { RealtimeEngine } from './engine';
import type { ClientConnection, ConnectionGroup } from './engine';
import { DROP_GRACE_MS, errorFrame, LIMITS, wireFrame } from './protocol';
import type { Frame } from './protocol';

export const SOCKET_IO_PATH = '/realtime/socket.io';

/**
 * socket.io clients (`path: '/realtime/socket.io'`, `auth: { key }`, contract section 5): each
 * frame is a socket.io `message` event whose payload is the frame object, the same frames as
 * the WebSocket endpoint and the same engine. socket.io has no close codes, so a server-side
 * close sends its code and reason as an error frame first.
 */
@Injectable()
export class SocketIoEndpoint implements OnApplicationShutdown {
  private readonly logger = new Logger('RealtimeSocketIo');
  private readonly servers: Server[] = [];

  constructor(
    private readonly engine: RealtimeEngine,
    private readonly keys: ClientKeys,
    private readonly frames: FrameHandler,
  ) {}

  attach(httpServer: HttpServer): void {
    const io = new Server(httpServer, {
      path: SOCKET_IO_PATH,
      serveClient: false,
      maxHttpBufferSize: 256 * 1024,
      // The WebSocket endpoint answers its own upgrades, some after a database lookup.
      destroyUpgrade: false,
      pingInterval: LIMITS.activityTimeoutSeconds * 1000,
    });
    io.use((socket, next) => {
      const key = (socket.handshake.auth as { key?: unknown } | undefined)?.key;
      this.keys
        .active(typeof key === 'string' ? key : '')
        .then((active) => {
          if (!active) return next(new Error('Unknown or revoked app key'));
          (socket.data as { key?: ActiveKey }).key = active;
          next();
        })
        .catch((err: Error) => {
          this.logger.warn(`looking up a realtime key failed: ${err.message}`);
          next(new Error('The app key could not be checked; try again'));
        });
    });
    // A socket is in a room per channel it subscribes to (the engine keeps them in step), so a
    // broadcast to a channel is one packet, encoded once, to one room.
    const room = (key: string) => `channel:${key}`;
    const sendRoom: ConnectionGroup['sendRoom'] = (key, frame, except) =>
      (except ? io.to(room(key)).except(except) : io.to(room(key))).emit(
        'message',
        wireFrame(frame),
      );
    io.on('connection', (socket) =>
      this.serve(socket, {
        group: io,
        address: socket.id,
        sendRoom,
        join: (key) => void socket.join(room(key)),
        leave: (key) => void socket.leave(room(key)),
      }),
    );
    this.servers.push(io);
  }

  onApplicationShutdown(): Promise<void> {
    return Promise.all(this.servers.map((io) => io.close())).then(() => undefined);
  }

  private serve(socket: Socket, together: ClientConnection['together']): void {
    const key = (socket.data as { key: ActiveKey }).key;
    const connection = {
      id: this.engine.newConnectionId(),
      appId: key.appId,
      keyId: key.keyId,
      secret: key.secret,
      send: (frame: Frame) => socket.emit('message', wireFrame(frame)),
      together,
      close: (code: number, reason: string) => {
        socket.emit('message', wireFrame(errorFrame(code, reason)));
        socket.disconnect(true);
      },
      unsentBytes: () => unsentBytes(socket),
      // engine.io would wait for its queue to drain before closing; a stalled reader never does.
      drop: () => {
        const ws = engineIoOf(socket).transport.socket;
        socket.conn.close(true);
        setTimeout(() => ws?.terminate?.(), DROP_GRACE_MS).unref();
      },
    };
    socket.on('message', (payload: unknown) => {
      const raw = typeof payload === 'string' ? payload : JSON.stringify(payload ?? null);
      this.frames.receive(connection, Buffer.from(raw), false);
    });
    socket.on('disconnect', () => this.engine.closed(connection.id));
    this.engine.open(connection);
  }
}

/** What engine.io keeps for a socket and does not type: its queue, and its WebSocket if any. */
function engineIoOf(socket: Socket) {
  return socket.conn as unknown as {
    writeBuffer: Array<{ data?: string | Buffer }>;
    transport: { socket?: { bufferedAmount?: number; terminate?: () => void } };
  };
}

/** engine.io's queue for the socket (filled while its transport cannot write) and its WebSocket's. */
function unsentBytes(socket: Socket): number {
  const conn = engineIoOf(socket);
  let bytes = conn.transport.socket?.bufferedAmount ?? 0;
  for (const packet of conn.writeBuffer) bytes += packet.data?.length ?? 0;
  return bytes;
}
