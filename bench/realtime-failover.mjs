#!/usr/bin/env node
// Realtime failover in distributed mode: `npm run start:distributed` on free ports, one official
// client (@messagebird/realtime) connected through the gateway's origin, then the realtime process
// SIGKILLed (the supervisor restarts it) RUNS times. Per run: when the realtime process accepted
// clients again (its client port answers a TCP connect, polled every 20 ms) and when the client
// was connected again (its state, polled every 20 ms). Prints one line per run.
//
//   node bench/realtime-failover.mjs [--runs 3]
import { spawn, execFileSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { BirdRealtime } from '@messagebird/realtime';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WebSocket = createRequire(import.meta.url)('ws');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const ADMIN = 'sbadm_failover_bench_token_0123456789';

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
const accepts = (port) =>
  new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const [port, clientPort] = [await freePort(), await freePort()];
const platform = spawn(process.execPath, [join(root, 'tools', 'start-distributed.mjs')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    REALTIME_CLIENT_PORT: String(clientPort),
    METRICS_PORT: '0',
    LOG_LEVEL: 'error',
    PLATFORM_ADMIN_TOKEN: ADMIN,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const lines = [];
platform.stdout.setEncoding('utf8');
platform.stdout.on('data', (chunk) => lines.push(...chunk.split('\n')));
const stop = () => {
  try {
    process.kill(-platform.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.once('exit', stop);

try {
  await until(() => lines.some((l) => l.includes('Switchboard is running')), 180_000, 'start');
  const api = async (method, path, token, body) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const created = await api('POST', '/admin/v1/workspaces', ADMIN, { name: 'Failover' });
  const made = await api('POST', '/v1/realtime/apps', created.api_key.secret, {
    name: 'failover',
    region: 'eu1',
  });
  const client = new BirdRealtime({
    appKey: made.key.id,
    wsHost: `127.0.0.1:${port}`,
    allowInsecure: true,
    webSocket: (url) => new WebSocket(url),
  });
  const state = () => client.connection.state;
  await until(() => state() === 'connected', 10_000, 'first connection');
  for (let run = 1; run <= RUNS; run++) {
    const realtimePid = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(platform.pid)])
      .toString()
      .split('\n')
      .find((line) => line.includes('dist/apps/realtime/src/main.js'))
      ?.trim()
      .split(/\s+/)[0];
    const killedAt = Date.now();
    process.kill(Number(realtimePid), 'SIGKILL');
    // Gone for good (its port closed) before the wait for the new one starts.
    await until(() => !alive(Number(realtimePid)), 10_000, 'realtime gone');
    await until(() => state() !== 'connected', 10_000, 'client noticed');
    await until(() => accepts(clientPort), 60_000, 'realtime back');
    const serviceBack = Date.now() - killedAt;
    await until(() => state() === 'connected', 60_000, 'client back');
    const clientBack = Date.now() - killedAt;
    console.log(
      `run ${run}: realtime accepting ${(serviceBack / 1000).toFixed(2)} s after the kill` +
        `; official client connected through the gateway` +
        ` ${(clientBack / 1000).toFixed(2)} s after the kill, ${((clientBack - serviceBack) / 1000).toFixed(2)} s after the service`,
    );
    // Let the client's back-off counter reset (it does on connect) and the restart settle.
    await sleep(2_000);
  }
  client.disconnect();
} finally {
  stop();
  await sleep(1_000);
  process.exit(0);
}
