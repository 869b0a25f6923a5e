import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Pool } from 'undici';
import { postBody, PostTimeoutError } from './post-body';

describe(postBody.name, () => {
  let server: Server;
  let pool: Pool;
  let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => answer(req, res, body));
    });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    await pool.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (overrides: { timeoutMs?: number; maxBodyBytes?: number } = {}) =>
    postBody(pool, {
      path: '/hooks?x=1',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"type":"test"}',
      timeoutMs: overrides.timeoutMs ?? 2000,
      maxBodyBytes: overrides.maxBodyBytes ?? 1024,
    });

  it('sends the path, headers and body, and answers the status, headers and body', async () => {
    let seen: { url?: string; method?: string; id?: string; body?: string } = {};
    answer = (req, res, body) => {
      seen = { url: req.url, method: req.method, id: req.headers['webhook-id'] as string, body };
      res.writeHead(202, { 'retry-after': '7' }).end('accepted');
    };
    const result = await post();
    expect(seen).toEqual({
      url: '/hooks?x=1',
      method: 'POST',
      id: 'msg_1',
      body: '{"type":"test"}',
    });
    expect(result).toMatchObject({ statusCode: 202, body: 'accepted' });
    expect(result.headers['retry-after']).toBe('7');
  });

  it('keeps the first maxBodyBytes of a long answer and reads the rest, so the connection carries the next request', async () => {
    answer = (_req, res) => res.end('x'.repeat(100_000));
    const first = await post({ maxBodyBytes: 10 });
    expect(first.body).toBe('x'.repeat(10));
    answer = (_req, res) => res.end('next');
    expect((await post()).body).toBe('next');
  });

  it('takes an endless answer as it stands once past DRAIN_BYTES, closing its connection', async () => {
    answer = (_req, res) => {
      res.writeHead(200);
      const chunk = 'y'.repeat(16 * 1024);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    };
    const started = Date.now();
    const result = await post({ timeoutMs: 10_000, maxBodyBytes: 8 });
    expect(result).toMatchObject({ statusCode: 200, body: 'y'.repeat(8) });
    expect(Date.now() - started).toBeLessThan(5_000);
    answer = (_req, res) => res.end('next');
    expect((await post()).body).toBe('next');
  });

  it('answers a body with a NUL as text PostgreSQL can store', async () => {
    answer = (_req, res) => res.end('ok\u0000nul');
    expect((await post()).body).toBe('ok\ufffdnul');
  });

  it('rejects with a time-out when nothing is answered in time', async () => {
    answer = () => undefined; // never answers
    await expect(post({ timeoutMs: 200 })).rejects.toBeInstanceOf(PostTimeoutError);
  });

  it('keeps the status of an answer whose body is cut short by the time-out, with what came', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    };
    await expect(post({ timeoutMs: 300 })).resolves.toMatchObject({
      statusCode: 200,
      body: 'partial',
    });
  });

  it("rejects with the connection's error when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new Pool(`http://127.0.0.1:${port}`);
    await expect(
      postBody(nowhere, { path: '/', headers: {}, body: '{}', timeoutMs: 2000, maxBodyBytes: 10 }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await nowhere.destroy();
  });
});
