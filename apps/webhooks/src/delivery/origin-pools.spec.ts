import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
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

describe(`${OriginPools.name} over TLS`, () => {
  let dir: string;
  let ca: string;
  let server: Server;
  let port: number;
  const names: Array<string | false | null> = [];

  beforeAll(async () => {
    // A CA of the test's own and a certificate for hooks.example.invalid only.
    dir = mkdtempSync(join(tmpdir(), 'origin-pools-'));
    const openssl = (...args: string[]) =>
      execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=Test CA',
    );
    openssl(
      'req',
      ...ec,
      '-keyout',
      'hooks.key',
      '-out',
      'hooks.csr',
      '-subj',
      '/CN=hooks.example.invalid',
    );
    writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=DNS:hooks.example.invalid\n');
    openssl(
      'x509',
      '-req',
      '-in',
      'hooks.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'hooks.crt',
      '-days',
      '2',
      '-extfile',
      'san.cnf',
    );
    ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
    server = createHttpsServer(
      { key: readFileSync(join(dir, 'hooks.key')), cert: readFileSync(join(dir, 'hooks.crt')) },
      (req, res) => {
        names.push((req.socket as TLSSocket).servername);
        res.end('ok');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("connects to the pinned address but checks the certificate against the endpoint's name, which it sends as SNI", async () => {
    const pools = new OriginPools(10, ca);
    const good = pools.get(
      `https://hooks.example.invalid:${port}`,
      'hooks.example.invalid',
      '127.0.0.1',
      2000,
    );
    const answer = await good.request({ path: '/hooks', method: 'POST', body: '{}' });
    expect(await answer.body.text()).toBe('ok');
    expect(names).toEqual(['hooks.example.invalid']);
    // The same address under another name: the certificate does not name it, so no request.
    const other = pools.get(
      `https://other.example.invalid:${port}`,
      'other.example.invalid',
      '127.0.0.1',
      2000,
    );
    await expect(
      other.request({ path: '/hooks', method: 'POST', body: '{}' }),
    ).rejects.toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(names).toHaveLength(1);
    await pools.close();
  });
});
