import { request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@switchboard/platform';
import type { Logger } from 'pino';
import { errorEnvelope } from './error-envelope';
import { newRequestId } from './request-id';
import { CommonErrors } from '@switchboard/contracts';
import { UpstreamConnector } from './upstream-connector';

const WEBSOCKET_PATH = /^\/app\/[^/?]+(\?.*)?$/;
const SOCKET_IO_PATH = /^\/realtime\/socket\.io\//;
/**
 * A realtime process killed and restarted is back within a few seconds (the supervisor restarts
 * after 1 s; Kubernetes about as fast): clients that reconnect meanwhile are held that long.
 */
const UPSTREAM_HOLD_MS = 10_000;

/**
 * Distributed mode: realtime clients reach the realtime service through the gateway's origin,
 * as they reach the API port in the embedded default. WebSocket upgrades on `/app/{key}` and
 * `/realtime/socket.io/` are piped to `target` (a realtime process's REALTIME_CLIENT_PORT, or a
 * load balancer with connection affinity in front of several); socket.io's long-polling requests
 * are forwarded as plain HTTP. The realtime service checks the key and every frame itself. Any
 * other upgrade is refused; other requests go on to the API's route table untouched. While the
 * realtime process does not accept connections (a restart), a client's connect is held until it
 * does (up to `holdMs`), so clients are back as soon as the service is, not after a back-off.
 */
export function forwardRealtimeClients(
  server: Server,
  target: URL,
  origin: string,
  logger: Logger,
  /** How long a client waits for a restarting realtime process before it is refused. */
  holdMs = UPSTREAM_HOLD_MS,
): void {
  const port = Number(target.port || 80);
  const host = target.hostname;
  const connector = new UpstreamConnector(port, host, holdMs);

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '';
    if (!WEBSOCKET_PATH.test(url) && !SOCKET_IO_PATH.test(url)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Held while the realtime process restarts: see UpstreamConnector.
    const gone = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    connector.connect(gone).then(
      (upstream) => {
        if (socket.destroyed) return void upstream.destroy();
        upstream.write(requestHead(request));
        if (head.length > 0) upstream.write(head);
        socket.pipe(upstream).pipe(socket);
        upstream.on('error', (err) => {
          logger.warn({ err: err.message }, 'realtime client connection to the service lost');
          socket.destroy();
        });
        socket.on('error', () => upstream.destroy());
        socket.on('close', () => upstream.destroy());
      },
      (err: Error) => {
        logger.warn({ err: err.message }, 'realtime client upgrade not forwarded');
        if (socket.writable)
          socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        else socket.destroy();
      },
    );
  });

  // socket.io's polling transport: taken before the API (as socket.io itself does when attached).
  const api = server.listeners('request') as Array<
    (req: IncomingMessage, res: ServerResponse) => void
  >;
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!SOCKET_IO_PATH.test(request.url ?? '')) {
      for (const listener of api) listener.call(server, request, response);
      return;
    }
    const unavailable = (err: Error) => {
      logger.warn({ err: err.message }, 'realtime client request not forwarded');
      if (response.headersSent) return void response.destroy();
      const requestId = newRequestId();
      const error = new AppError(CommonErrors.ServiceUnavailable, {
        message: 'The realtime service cannot be reached right now; retry shortly.',
      });
      response
        .writeHead(error.status, { 'content-type': 'application/json', 'x-request-id': requestId })
        .end(JSON.stringify(errorEnvelope(error, requestId, origin)));
    };
    const gone = new Promise((resolve) => response.once('close', resolve));
    connector.connect(gone).then((connection) => {
      if (response.destroyed) return void connection.destroy();
      const upstream = httpRequest(
        {
          host,
          port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, 'x-forwarded-for': forwardedFor(request) },
          createConnection: () => connection,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', unavailable);
      request.pipe(upstream);
    }, unavailable);
  });
}

/** The upgrade request as received, with the client's address appended to X-Forwarded-For. */
function requestHead(request: IncomingMessage): string {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    if (request.rawHeaders[i].toLowerCase() !== 'x-forwarded-for')
      lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  lines.push(`X-Forwarded-For: ${forwardedFor(request)}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function forwardedFor(request: IncomingMessage): string {
  const earlier = request.headers['x-forwarded-for'];
  const client = request.socket.remoteAddress ?? 'unknown';
  return earlier ? `${String(earlier)}, ${client}` : client;
}
