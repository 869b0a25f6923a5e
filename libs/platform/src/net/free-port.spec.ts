import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from './free-port';

const ephemeralLow = () =>
  Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('hands out distinct ports below the ephemeral range, where outgoing connections never land', async () => {
    const ports = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) expect(port).toBeLessThan(ephemeralLow());
  });

  it('walks past ports something already listens on', async () => {
    // The chooser walks up one port at a time; occupy the next three it would try.
    let last = await freePort();
    while (last + 4 >= ephemeralLow()) last = await freePort(); // not at the range's wrap-around
    const occupied = [last + 1, last + 2, last + 3].map((port) => {
      const server = createServer();
      return new Promise<ReturnType<typeof createServer>>((done) =>
        server.listen(port, '127.0.0.1', () => done(server)),
      );
    });
    const servers = await Promise.all(occupied);
    try {
      expect(await freePort()).toBe(last + 4);
    } finally {
      for (const server of servers) server.close();
    }
  });
});
