import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OriginPools } from './origin-pools';

describe(OriginPools.name, () => {
  let server: Server;
  let port: number;
  const seen: Array<{ host?: string; socket: number }> = [];
  const sockets = new Map<unknown, number>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size + 1);
      seen.push({ host: req.headers.host, socket: sockets.get(req.socket) ?? 0 });
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  beforeEach(() => (seen.length = 0));

  it('connects to the checked address whatever the name resolves to, keeping the name in Host, over kept-alive connections', async () => {
    const pools = new OriginPools();
    // `.invalid` never resolves (RFC 6761): only the pinned address can have been reached.
    const origin = `http://hooks.example.invalid:${port}`;
    for (let i = 0; i < 6; i++) {
      const pool = pools.get(origin, 'hooks.example.invalid', '127.0.0.1', 2000);
      const answer = await pool.request({ path: '/hooks', method: 'POST', body: '{}' });
      expect(await answer.body.text()).toBe('ok');
    }
    expect(seen.map((request) => request.host)).toEqual(
      Array(6).fill(`hooks.example.invalid:${port}`),
    );
    // Reused: undici may open a second connection while the first finishes its answer.
    expect(new Set(seen.map((request) => request.socket)).size).toBeLessThanOrEqual(2);
    expect(pools.size).toBe(1);
    await pools.close();
  });

  it('keeps a pool per origin and address, and closes the least recently used beyond its limit', async () => {
    const pools = new OriginPools(2);
    const first = pools.get(`http://127.0.0.1:${port}`, '127.0.0.1', '127.0.0.1', 2000);
    const second = pools.get(
      `http://a.example.invalid:${port}`,
      'a.example.invalid',
      '127.0.0.1',
      2000,
    );
    expect(pools.get(`http://127.0.0.1:${port}`, '127.0.0.1', '127.0.0.1', 2000)).toBe(first);
    pools.get(`http://b.example.invalid:${port}`, 'b.example.invalid', '127.0.0.1', 2000);
    expect(pools.size).toBe(2);
    expect(second.closed).toBe(true); // the least recently used
    expect(first.closed).toBe(false);
    await pools.close();
  });
});
