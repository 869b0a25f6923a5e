import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort, NATS_MAX_PAYLOAD_BYTES } from '@switchboard/platform';

export interface RunningNats {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`), as an outage that ends would. */
  restart(): Promise<void>;
}

/**
 * Finds `nats-server` on PATH. A fresh machine lacks it: as root with apt it is installed
 * (`apt-get install -y nats-server`); otherwise this fails with one line saying how to install.
 */
function natsServerBinary(): string {
  const found = which('nats-server');
  if (found) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && which('apt-get')) {
    execFileSync(
      'sh',
      ['-c', 'apt-get update -qq && apt-get install -y -qq nats-server >/dev/null'],
      { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
    );
    const installed = which('nats-server');
    if (installed) return installed;
  }
  throw new Error(
    'nats-server not found: install it with "apt-get install -y nats-server" (the distributed tests need a real NATS server)',
  );
}

function which(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '')
    .split(':')
    .concat(['/usr/sbin', '/usr/bin', '/usr/local/bin'])) {
    if (dir && existsSync(`${dir}/${binary}`)) return `${dir}/${binary}`;
  }
  return undefined;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

const STORE_PREFIX = 'switchboard-nats-';
const OWNER_FILE = 'owner.pid';
const DAY_MS = 86_400_000;

/**
 * Removes the stores of servers whose test process is gone: a jest worker that is force-exited
 * never runs its 'exit' handlers, and `stop` keeps the store for `restart`. A store without an
 * owner file (older test runs) goes once it is a day old.
 */
function removeOrphanedStores(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(STORE_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    try {
      const owner = existsSync(join(dir, OWNER_FILE))
        ? Number(readFileSync(join(dir, OWNER_FILE), 'utf8'))
        : NaN;
      // Not a process id (an empty file, half written): judged by age, as an old store is.
      const orphaned =
        Number.isInteger(owner) && owner > 0
          ? !isAlive(owner)
          : Date.now() - statSync(dir).mtimeMs > DAY_MS;
      if (orphaned) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another test process removed it first, or it is not ours to read.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The port opens before JetStream is up: a first request to it in that moment finds no
 * responders ("jetstream is not enabled").
 */
async function waitForJetStream(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nc = await connect({ servers: url });
  try {
    for (;;) {
      try {
        await (await jetstreamManager(nc)).getAccountInfo();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await nc.close();
  }
}

/**
 * A real nats-server on a free port, configured as the deployments configure it (`max_payload`
 * large enough for a 20 MB email); `maxPayload` sets another (nats-server's default is 1 MB).
 */
export async function startNatsServer(options: { maxPayload?: number } = {}): Promise<RunningNats> {
  const binary = natsServerBinary();
  const port = await freePort();
  // JetStream (the event bus) keeps its store across `restart`, as a real outage would.
  removeOrphanedStores();
  const storeDir = mkdtempSync(join(tmpdir(), STORE_PREFIX));
  writeFileSync(join(storeDir, OWNER_FILE), String(process.pid));
  process.once('exit', () => rmSync(storeDir, { recursive: true, force: true }));
  // max_payload has no command-line flag: it is set in a configuration file.
  const config = join(storeDir, 'nats.conf');
  writeFileSync(config, `max_payload: ${options.maxPayload ?? NATS_MAX_PAYLOAD_BYTES}\n`);
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ['-c', config, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
    child = spawn(binary, args, {
      stdio: 'ignore',
    });
    await waitForPort(port, 10_000);
    await waitForJetStream(`nats://127.0.0.1:${port}`, 10_000);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return { url: `nats://127.0.0.1:${port}`, port, stop, restart: start };
}
