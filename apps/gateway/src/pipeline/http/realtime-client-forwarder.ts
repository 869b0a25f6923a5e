import { request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '@switchboard/platform';
import type { Logger } from 'pino';
import { errorEnvelope } from './error-envelope';
import { newRequestId } from './request-id';
import { CommonErrors } from '@switchboard/contracts';

const WEBSOCKET_PATH = /^\/app\/[^/?]+(\?.*)?$/;
const SOCKET_IO_PATH = /^\/realtime\/socket\.io\//;

/**
 * Distributed mode: realtime clients reach the realtime service through the gateway's origin,
 * as they reach the API port in the embedded default. WebSocket upgrades on `/app/{key}` and
 * `/realtime/socket.io/` are piped to `target` (a realtime process's REALTIME_CLIENT_PORT, or a
 * load balancer with connection affinity in front of several); socket.io's long-polling requests
 * are forwarded as plain HTTP. The realtime service checks the key and every frame itself. Any
 * other upgrade is refused; other requests go on to the API's route table untouched.
 */
export function forwardRealtimeClients(
  server: Server,
  target: URL,
  origin: string,
  logger: Logger,
): void {
  const port = Number(target.port || 80);
  const host = target.hostname;

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '';
    if (!WEBSOCKET_PATH.test(url) && !SOCKET_IO_PATH.test(url)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(port, host, () => {
      upstream.write(requestHead(request));
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    upstream.on('error', (err) => {
      logger.warn({ err: err.message }, 'realtime client upgrade not forwarded');
      if (socket.writable && !upstream.readableLength)
        socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
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
    const upstream = httpRequest(
      {
        host,
        port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor(request) },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (err) => {
      logger.warn({ err: err.message }, 'realtime client request not forwarded');
      if (response.headersSent) return void response.destroy();
      const requestId = newRequestId();
      const error = new AppError(CommonErrors.ServiceUnavailable, {
        message: 'The realtime service cannot be reached right now; retry shortly.',
      });
      response
        .writeHead(error.status, { 'content-type': 'application/json', 'x-request-id': requestId })
        .end(JSON.stringify(errorEnvelope(error, requestId, origin)));
    });
    request.pipe(upstream);
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
