#!/usr/bin/env node
// Realtime fan-out, side by side with a bare socket.io server that emits on an HTTP POST: 1,000
// socket.io subscribers on one channel, 100-byte events published open-loop at 10, 20 and 40
// per second through the API (the bare server: a POST to itself). Reports deliveries/s,
// publish-to-receive p50/p99 and loss for both. Then memory: 10,000 idle official-protocol
// clients (WebSocket at /app/{key}) against 10,000 idle socket.io clients on the bare server.
//
//   npm run bench:realtime              # build, measure, print figures and MEETS / MISSES
//   npm run bench:realtime -- --write   # same, and rewrite its section of bench/RESULTS.md
import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiCall,
  percentile,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { io } = require('socket.io-client');
const WebSocket = require('ws');
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Realtime fan-out (`npm run bench:realtime`)';
const write = process.argv.includes('--write');

const SUBSCRIBERS = 1000;
// Diagnostics (not for --write): --rates=40 --rounds=1 measure less.
const argOf = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const RATES = argOf('rates')?.split(',').map(Number) ?? [10, 20, 40];
const ROUNDS = Number(argOf('rounds') ?? 3);
if (write && (argOf('rates') || argOf('rounds')))
  throw new Error('--write records only the standard run: drop --rates and --rounds');
const SECONDS = 10;
const IDLE_CLIENTS = 10_000;
/** p99 against bare socket.io's in the same round, per publish rate (median of the rounds). */
const GOAL_P99_RATIO = { 20: 1.2, 40: 1.5 };
const GOAL_RSS_PER_CLIENT = 10 * 1024;

const children = [];
let tmp;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const log = (line) => process.stdout.write(`${line}\n`);

const start = (name, args, env) => startNodeChild(children, root, name, args, env);

async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** `count` socket.io clients subscribed to `channel`; each records receive latency of `tick`. */
async function socketIoSubscribers(base, auth, channel, count, latencies) {
  const sockets = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, () => {
      const socket = io(base, {
        path: '/realtime/socket.io',
        auth,
        transports: ['websocket'],
        forceNew: true,
      });
      sockets.push(socket);
      return new Promise((done, fail) => {
        const timer = setTimeout(
          () => fail(new Error('subscriber did not subscribe in time')),
          30_000,
        );
        socket.on('message', (frame) => {
          if (frame.event === 'bird:connection_established')
            socket.emit('message', { event: 'bird:subscribe', data: { channel } });
          else if (frame.event === 'bird_internal:subscription_succeeded') {
            clearTimeout(timer);
            done();
          } else if (frame.event === 'tick') {
            const { sent_at: sentAt } = JSON.parse(frame.data);
            latencies.push(Date.now() - sentAt);
          }
        });
        socket.on('connect', () => {
          // The bare server sends no greeting: subscribe at once.
          if (!auth) socket.emit('message', { event: 'bird:subscribe', data: { channel } });
        });
      });
    });
    await Promise.all(batch);
  }
  return sockets;
}

async function publishRun(label, publish, rate, latencies) {
  latencies.length = 0;
  const total = rate * SECONDS;
  const started = Date.now();
  const inFlight = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(publish({ sent_at: Date.now(), pad: 'x'.repeat(60) }));
  }
  await Promise.all(inFlight);
  const expected = total * SUBSCRIBERS;
  const deadline = Date.now() + 10_000;
  while (latencies.length < expected && Date.now() < deadline) await sleep(50);
  const seconds = (Date.now() - started) / 1000;
  const result = {
    label,
    rate,
    delivered: latencies.length,
    lost: expected - latencies.length,
    perSecond: latencies.length / Math.max(seconds, SECONDS),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
  log(
    `  ${label} at ${rate}/s: ${result.delivered} of ${expected} delivered, p50 ${result.p50} ms, p99 ${result.p99} ms`,
  );
  return result;
}

async function idleMemory(pid, connect) {
  const before = await rssOf(pid);
  const clients = [];
  for (let i = 0; i < IDLE_CLIENTS; i += 250) {
    const batch = [];
    for (let j = 0; j < 250 && i + j < IDLE_CLIENTS; j++)
      batch.push(connect().then((c) => clients.push(c)));
    await Promise.all(batch);
  }
  await sleep(2000);
  const after = await rssOf(pid);
  return { clients, perClient: (after - before) / IDLE_CLIENTS, before, after };
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-realtime-'));
  const { base, adminToken, platform } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'realtime',
  );
  const bare = start('bare socket.io', [join(root, 'bench/bare-socketio.mjs')]);
  const [, barePort] = await bare.line(/"port":(\d+)/);
  const bareBase = `http://127.0.0.1:${barePort}`;

  const api = (method, path, token, body, headers) =>
    apiCall(base, method, path, token, body, headers);
  const workspace = await api('POST', '/admin/v1/workspaces', adminToken, { name: 'Bench' });
  const token = workspace.api_key.secret;
  const made = await api('POST', '/v1/realtime/apps', token, { name: 'bench', region: 'eu1' });
  const { app, key } = made;

  const ours = [];
  const bareLatencies = [];
  log(`subscribing ${SUBSCRIBERS} socket.io clients to each server ...`);
  const ourSockets = await socketIoSubscribers(base, { key: key.id }, 'fanout', SUBSCRIBERS, ours);
  const bareSockets = await socketIoSubscribers(
    bareBase,
    undefined,
    'fanout',
    SUBSCRIBERS,
    bareLatencies,
  );
  const publishOurs = (data) =>
    api(
      'POST',
      `/v1/realtime/apps/${app.id}/events`,
      token,
      { event: 'tick', channels: ['fanout'], data },
      {
        'x-realtime-key': key.id,
        'x-realtime-secret': key.secret,
      },
    );
  const publishBare = (data) =>
    fetch(`${bareBase}/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'fanout', event: 'tick', data }),
    }).then((res) => res.text());

  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round} of ${ROUNDS}`);
    for (const rate of RATES) {
      // Which side goes first alternates, so a trend in the machine's load favours neither.
      const oursFirst = round % 2 === 1;
      const first = oursFirst
        ? await publishRun('Switchboard', publishOurs, rate, ours)
        : await publishRun('bare socket.io', publishBare, rate, bareLatencies);
      const second = oursFirst
        ? await publishRun('bare socket.io', publishBare, rate, bareLatencies)
        : await publishRun('Switchboard', publishOurs, rate, ours);
      const [oursRun, bareRun] = oursFirst ? [first, second] : [second, first];
      runs.push({ round, rate, ours: oursRun, bare: bareRun });
    }
  }
  for (const socket of [...ourSockets, ...bareSockets]) socket.disconnect();
  await sleep(1000);

  log(`memory: ${IDLE_CLIENTS} idle clients on each server ...`);
  const wsUrl = `${base.replace('http', 'ws')}/app/${key.id}?protocol=7&client=bench`;
  const ourMemory = await idleMemory(
    platform.proc.pid,
    () =>
      new Promise((done, fail) => {
        const ws = new WebSocket(wsUrl);
        ws.once('message', () => done(ws));
        ws.once('error', fail);
      }),
  );
  for (const ws of ourMemory.clients) ws.terminate();
  const bareMemory = await idleMemory(
    bare.proc.pid,
    () =>
      new Promise((done, fail) => {
        const socket = io(bareBase, {
          path: '/realtime/socket.io',
          transports: ['websocket'],
          forceNew: true,
        });
        socket.once('connect', () => done(socket));
        socket.once('connect_error', fail);
      }),
  );
  for (const socket of bareMemory.clients) socket.disconnect();
  return report(runs, ourMemory, bareMemory);
}

async function report(runs, ourMemory, bareMemory) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratioOf = (run) => run.ours.p99 / Math.max(run.bare.p99, 1);
  const noLoss = runs.every((run) => run.ours.lost === 0);
  const goals = Object.entries(GOAL_P99_RATIO)
    .filter(([rate]) => RATES.includes(Number(rate)))
    .map(([rate, goal]) => {
      const ratios = runs.filter((run) => run.rate === Number(rate)).map(ratioOf);
      const ratio = median(ratios);
      return { rate, goal, ratios, ratio, meets: ratio <= goal };
    });
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const memoryOk = ourMemory.perClient <= GOAL_RSS_PER_CLIENT;
  const every = noLoss && memoryOk && goals.every((goal) => goal.meets);
  const lines = [
    HEADING,
    '',
    `**Result: ${every ? 'every goal met' : 'NOT every goal met'}** (median of ${ROUNDS} rounds; in each round every rate runs on both servers, which one goes first alternating).`,
    '',
    `- ${noLoss ? 'MEETS' : 'MISSES'}: no loss at ${RATES.join(', ')} publishes/s to ${SUBSCRIBERS} subscribers in any round (lost: ${runs.map((r) => r.ours.lost).join(', ')})`,
    ...goals.map(
      (goal) =>
        `- ${goal.meets ? 'MEETS' : 'MISSES'}: p99 at ${goal.rate} publishes/s ${goal.ratio.toFixed(2)}x bare socket.io's in the same round (median; rounds ${goal.ratios.map((ratio) => `${ratio.toFixed(2)}x`).join(', ')}; goal <= ${goal.goal}x)`,
    ),
    `- ${memoryOk ? 'MEETS' : 'MISSES'}: ${kb(ourMemory.perClient)} of RSS per idle official client (goal <= ${kb(GOAL_RSS_PER_CLIENT)}); bare socket.io ${kb(bareMemory.perClient)} per idle client`,
    '',
    '| round | publishes/s | target | delivered | lost | deliveries/s | p50 | p99 | p99 of bare |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---:|',
    ...runs.flatMap((run) =>
      [run.ours, run.bare].map(
        (r) =>
          `| ${run.round} | ${run.rate} | ${r.label} | ${r.delivered.toLocaleString('en-US')} | ${r.lost} | ${Math.round(r.perSecond).toLocaleString('en-US')} | ${r.p50} ms | ${r.p99} ms | ${r === run.ours ? `${ratioOf(run).toFixed(2)}x` : ''} |`,
      ),
    ),
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`); publishes go through the gateway (`POST /v1/realtime/apps/{id}/events` with the API key and `X-Realtime-Key`/`X-Realtime-Secret`), subscribers are socket.io clients at `/realtime/socket.io`',
    '- Bare: `bench/bare-socketio.mjs`, a socket.io server whose clients join one room, emitting the body of `POST /publish` to it (no auth, no engine)',
    `- Load: ${SUBSCRIBERS} socket.io clients (websocket transport) per server in the bench process; each rate runs ${SECONDS} s open-loop per server and round (publishes are sent on schedule, not after the previous answer), events of about 100 bytes carrying their send time; latency is taken by the subscriber on the same clock`,
    `- Memory: RSS of the server process (/proc) before and 2 s after ${IDLE_CLIENTS.toLocaleString('en-US')} idle clients connected: for Switchboard the official client's protocol (a WebSocket at \`/app/{key}\`, handshake received), for bare socket.io its own clients; the figure is the growth divided by the clients`,
    '',
    '```sh',
    'npm run bench:realtime              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:realtime -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeSection(section);
  return every ? 0 : 1;
}

const writeSection = (section) => writeResultsSection(RESULTS_FILE, HEADING, section);

await runBench('realtime.bench', main, children, () => tmp);
