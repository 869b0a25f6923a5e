import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port for a server this process is about to start, chosen below the kernel's ephemeral range.
 *
 * Asking the kernel for port 0 and closing the probe hands back a port from the ephemeral range,
 * which any outgoing connection on the machine (a pg or NATS client of a parallel test) may take
 * before our server binds it: that race failed CI with "address already in use". Ports below the
 * range are never given to outgoing connections; each process starts at its own offset and never
 * hands out the same port twice, and every candidate is checked by binding it.
 */
export async function freePort(): Promise<number> {
  const { low, high } = listeningRange();
  if (high - low < 100) return kernelPort();
  for (let tries = 0; tries < 200; tries++) {
    const port = low + ((start + handedOut++) % (high - low));
    if (await canListen(port)) return port;
  }
  return kernelPort();
}

let handedOut = 0;
const start = (process.pid * 7919 + Math.floor(Math.random() * 1000)) % 10_000;

function listeningRange(): { low: number; high: number } {
  let ephemeralLow = 32768;
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    ephemeralLow = Number(low) || ephemeralLow;
  } catch {
    // Not Linux: keep the IANA default split.
  }
  return { low: Math.max(10_000, ephemeralLow - 12_000), high: ephemeralLow };
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
