import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { freePort } from '@switchboard/platform';
import { forwardRealtimeClients } from './realtime-client-forwarder';

const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** A stand-in for the realtime process: it answers upgrades and socket.io polling requests. */
function realtimeProcess(): Server {
  const server = createServer((request, response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`polled ${request.url}`),
  );
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket) => socket.send('hello'));
  return server;
}

/** Opens a WebSocket and resolves to its first message, or to how it failed. */
function firstMessage(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('message', (data) => {
      resolve(`message: ${(data as Buffer).toString()}`);
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) =>
      resolve(`refused: ${response.statusCode}`),
    );
    socket.once('error', (err) => resolve(`error: ${err.message}`));
  });
}

describe(forwardRealtimeClients.name, () => {
  const gateways: Server[] = [];
  const upstreams: Server[] = [];

  /** A gateway forwarding to `upstreamPort`, where nothing listens yet. */
  async function gatewayTo(upstreamPort: number, holdMs?: number): Promise<string> {
    const gateway = createServer((_request, response) => response.writeHead(404).end());
    forwardRealtimeClients(
      gateway,
      new URL(`http://127.0.0.1:${upstreamPort}`),
      'http://gateway.test',
      pino({ level: 'silent' }),
      holdMs,
    );
    gateways.push(gateway);
    return `127.0.0.1:${await listen(gateway)}`;
  }

  async function startUpstream(port: number): Promise<void> {
    const upstream = realtimeProcess();
    upstreams.push(upstream);
    await listen(upstream, port);
  }

  afterEach(async () => {
    await Promise.all([...gateways, ...upstreams].map(close));
    gateways.length = 0;
    upstreams.length = 0;
  });

  it('holds a WebSocket client while the realtime process is down and connects it once the process listens again', async () => {
    const port = await freePort();
    const gateway = await gatewayTo(port);
    const answer = firstMessage(`ws://${gateway}/app/key_1`);
    // The process comes back (a restart) while the client waits.
    setTimeout(() => void startUpstream(port), 300);
    await expect(answer).resolves.toBe('message: hello');
  });

  it('holds a socket.io polling request the same way', async () => {
    const port = await freePort();
    const gateway = await gatewayTo(port);
    const answer = fetch(`http://${gateway}/realtime/socket.io/?EIO=4&transport=polling`);
    setTimeout(() => void startUpstream(port), 300);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('polled /realtime/socket.io/?EIO=4&transport=polling');
  });

  it('refuses the upgrade (502) and answers polling with the 503 envelope when the process stays down past the hold', async () => {
    const gateway = await gatewayTo(await freePort(), 200);
    await expect(firstMessage(`ws://${gateway}/app/key_1`)).resolves.toBe('refused: 502');
    const polled = await fetch(`http://${gateway}/realtime/socket.io/?EIO=4&transport=polling`);
    expect(polled.status).toBe(503);
    expect(await polled.json()).toMatchObject({
      error: { code: 'E05002', type: 'service_unavailable_error' },
    });
  });

  it('forwards at once while the process listens, and refuses other upgrade paths', async () => {
    const port = await freePort();
    await startUpstream(port);
    const gateway = await gatewayTo(port);
    await expect(firstMessage(`ws://${gateway}/app/key_1`)).resolves.toBe('message: hello');
    await expect(firstMessage(`ws://${gateway}/v1/workspace`)).resolves.toBe('refused: 404');
  });
});
