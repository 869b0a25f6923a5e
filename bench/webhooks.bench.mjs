#!/usr/bin/env node
// Webhook delivery, end to end from the emitting transaction: events committed to the email
// service's outbox (as any product writes them) travel relay -> event bus -> webhooks intake ->
// delivery workers -> a local receiver (its own process). Side by side with the bare ceiling:
// the same receiver fed by a plain Node HTTP client POSTing signed bodies of the same size.
//
//   npm run bench:webhooks              # build, measure, print figures and MEETS / MISSES
//   npm run bench:webhooks -- --write   # same, and rewrite its section of bench/RESULTS.md
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { createHmac } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiCall as api,
  cpuSnapshot,
  percentile,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const background = require(join(root, 'dist/libs/background/src/index.js'));
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Webhooks (`npm run bench:webhooks`)';
const write = process.argv.includes('--write');

const WARMUP_EVENTS = 500;
const BURST_EVENTS = 10_000;
const BURST_PER_TRANSACTION = 100;
const PACED_RATE = 1000; // events/s
const PACED_SECONDS = 10;
const PACED_PER_TRANSACTION = 10;
const BARE_REQUESTS = 10_000;
const BARE_CONCURRENCY = 64;
const GOALS = { perSecond: 1000, p99Ms: 1000 };

const children = [];
let tmp;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const log = (line) => process.stdout.write(`${line}\n`);

const start = (name, args, env) => startNodeChild(children, root, name, args, env);

const ask = (child, message) =>
  new Promise((done) => {
    child.proc.once('message', done);
    child.proc.send(message);
  });

let sequence = 0;
/** One emitting transaction of `count` events; answers when it committed. */
async function emit(pool, workspaceId, count) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const emittedAt = Date.now();
    const events = Array.from({ length: count }, () => ({
      id: `bev_${process.pid}_${++sequence}`,
      type: 'email_suppression.created',
      workspaceId,
      timestamp: new Date(emittedAt).toISOString(),
      data: {
        id: `sup_bench_${sequence}`,
        email: `bench${sequence}@example.test`,
        emitted_at: emittedAt,
      },
    }));
    await background.writeOutboxEvents(
      { query: async (sql, params) => (await client.query(sql, params)).rows },
      'email',
      events,
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  background.wakeRelay(pool, 'email');
}

async function waitReceived(receiver, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await ask(receiver, 'stats');
    if (stats.received >= count || Date.now() > deadline) return stats;
    await sleep(100);
  }
}

async function bare(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: BARE_CONCURRENCY });
  const key = Buffer.from('bench-secret-bench-secret-bench!');
  const body = JSON.stringify({
    type: 'email_suppression.created',
    timestamp: new Date().toISOString(),
    data: { id: 'sup_bench_0', email: 'bench0@example.test', workspace_id: 'ws_bench' },
  });
  let next = 0;
  const one = () =>
    new Promise((done, fail) => {
      const id = `msg_bare_${next}`;
      const ts = Math.floor(Date.now() / 1000);
      const signature = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/bare',
          agent,
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(ts),
            'webhook-signature': `v1,${signature}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', done);
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: BARE_CONCURRENCY }, async () => {
      while (next < BARE_REQUESTS) {
        next += 1;
        await one();
      }
    }),
  );
  agent.destroy();
  return BARE_REQUESTS / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-webhooks-'));
  const receiver = start('receiver', [join(root, 'bench/webhook-receiver.mjs')], {}, true);
  const [, receiverPort] = await receiver.line(/"port":(\d+)/);
  const {
    databaseUrl: url,
    base,
    adminToken,
  } = await startPlatformOnPostgres(children, root, tmp, 'webhooks', {
    WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
  });
  const created = await api(base, 'POST', '/admin/v1/workspaces', adminToken, { name: 'Bench' });
  const token = created.api_key.secret;
  await api(base, 'POST', '/v1/webhooks', token, {
    url: `http://127.0.0.1:${receiverPort}/hooks`,
    events: ['email_suppression.created'],
  });
  const pool = new Pool({ connectionString: url, max: 4 });
  const workspaceId = created.workspace.id;
  const groups = children.map((child) => child.proc.pid);

  log(`warm-up: ${WARMUP_EVENTS} events ...`);
  for (let i = 0; i < WARMUP_EVENTS / 100; i++) await emit(pool, workspaceId, 100);
  await waitReceived(receiver, WARMUP_EVENTS, 60_000);

  log(
    `burst: ${BURST_EVENTS} events in transactions of ${BURST_PER_TRANSACTION}, as fast as they commit ...`,
  );
  await ask(receiver, 'reset');
  let cpuBefore = await cpuSnapshot(groups);
  const burstStart = Date.now();
  for (let i = 0; i < BURST_EVENTS / BURST_PER_TRANSACTION; i++)
    await emit(pool, workspaceId, BURST_PER_TRANSACTION);
  const emittedAfter = Date.now() - burstStart;
  const burst = await waitReceived(receiver, BURST_EVENTS, 120_000);
  let cpuAfter = await cpuSnapshot(groups);
  const burstSeconds = (burst.lastAt - burstStart) / 1000;
  const burstCpu = cpuOf(cpuBefore, cpuAfter, groups);
  if (process.env.BENCH_STAGES) {
    const rows = await pool.query(
      `SELECT (SELECT extract(epoch FROM max(received_at)) * 1000 FROM webhooks.events) AS intake_last,
              (SELECT extract(epoch FROM max(attempted_at)) * 1000 FROM webhooks.attempts) AS attempt_last,
              (SELECT extract(epoch FROM max(finished_at)) * 1000 FROM webhooks.deliveries) AS recorded_last`,
    );
    const stage = rows.rows[0];
    const buckets = await pool.query(
      `SELECT floor((extract(epoch FROM t) * 1000 - $1) / 200) * 200 AS at, kind, count(*)::int AS n FROM (
         SELECT received_at AS t, 'intake' AS kind FROM webhooks.events WHERE received_at >= to_timestamp($1 / 1000.0)
         UNION ALL SELECT attempted_at, 'attempt' FROM webhooks.attempts WHERE attempted_at >= to_timestamp($1 / 1000.0)
         UNION ALL SELECT finished_at, 'recorded' FROM webhooks.deliveries WHERE finished_at >= to_timestamp($1 / 1000.0)
       ) x GROUP BY 1, 2 ORDER BY 1, 2`,
      [burstStart],
    );
    const table = new Map();
    for (const row of buckets.rows) {
      const entry = table.get(row.at) ?? {};
      entry[row.kind] = row.n;
      table.set(row.at, entry);
    }
    for (const [at, entry] of table)
      log(`    ${String(at).padStart(5)} ms: intake ${entry.intake ?? 0}, attempts ${entry.attempt ?? 0}, recorded ${entry.recorded ?? 0}`);
    log(
      `  stages after burst start: emitted ${emittedAfter} ms, intake done ${Math.round(stage.intake_last - burstStart)} ms, last attempt ${Math.round(stage.attempt_last - burstStart)} ms, last received ${burst.lastAt - burstStart} ms, last recorded ${Math.round(stage.recorded_last - burstStart)} ms`,
    );
  }

  log(
    `paced: ${PACED_RATE} events/s for ${PACED_SECONDS} s (${PACED_PER_TRANSACTION} per transaction) ...`,
  );
  await ask(receiver, 'reset');
  cpuBefore = await cpuSnapshot(groups);
  const pacedTotal = PACED_RATE * PACED_SECONDS;
  const transactions = pacedTotal / PACED_PER_TRANSACTION;
  const intervalMs = 1000 / (PACED_RATE / PACED_PER_TRANSACTION);
  const pacedStart = Date.now();
  const inFlight = [];
  for (let i = 0; i < transactions; i++) {
    const due = pacedStart + i * intervalMs;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(emit(pool, workspaceId, PACED_PER_TRANSACTION));
  }
  await Promise.all(inFlight);
  const paced = await waitReceived(receiver, pacedTotal, 60_000);
  cpuAfter = await cpuSnapshot(groups);
  const pacedSeconds = (paced.lastAt - pacedStart) / 1000;
  const pacedCpu = cpuOf(cpuBefore, cpuAfter, groups);

  log(
    `bare: ${BARE_REQUESTS} signed POSTs from a plain Node client, ${BARE_CONCURRENCY} at once ...`,
  );
  await ask(receiver, 'reset');
  const bareRate = await bare(Number(receiverPort));
  await pool.end();

  const result = {
    burst: {
      delivered: burst.received,
      duplicates: burst.duplicates,
      perSecond: burst.received / burstSeconds,
      emittedInMs: emittedAfter,
      p50: percentile(burst.latencies, 50),
      p99: percentile(burst.latencies, 99),
      cpu: burstCpu,
    },
    paced: {
      delivered: paced.received,
      duplicates: paced.duplicates,
      perSecond: paced.received / pacedSeconds,
      p50: percentile(paced.latencies, 50),
      p99: percentile(paced.latencies, 99),
      max: Math.max(...paced.latencies),
      cpu: pacedCpu,
    },
    bareRate,
  };
  return report(result);
}

function cpuOf(before, after, groups) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const share = (ticks) => ticks / 100 / seconds;
  const [receiver, pg, platform] = groups;
  return {
    platform: share(after.byGroup[platform] - before.byGroup[platform]),
    postgres: share(after.byGroup[pg] - before.byGroup[pg]),
    receiver: share(after.byGroup[receiver] - before.byGroup[receiver]),
    bench: share(after.self - before.self),
    // Ticks are sampled at different instants: a few hundredths below zero are rounding.
    other: Math.max(0, share(after.busy - before.busy - (after.ours - before.ours))),
  };
}

async function report({ burst, paced, bareRate }) {
  const int = (n) => Math.round(n).toLocaleString('en-US');
  const cpu = (c) =>
    c
      ? `platform ${c.platform.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, receiver ${c.receiver.toFixed(2)}, emitter (bench) ${c.bench.toFixed(2)}, other ${c.other.toFixed(2)} CPUs`
      : 'not measured';
  const meetsRate =
    paced.delivered === PACED_RATE * PACED_SECONDS && paced.perSecond >= GOALS.perSecond * 0.97;
  const meetsP99 = paced.p99 < GOALS.p99Ms;
  const lines = [
    HEADING,
    '',
    `**Result: ${meetsRate && meetsP99 ? 'every goal met' : 'NOT every goal met'}.**`,
    '',
    `- ${meetsRate ? 'MEETS' : 'MISSES'}: ${int(burst.perSecond)} events/s delivered from a burst, and ${int(paced.delivered)} of ${int(PACED_RATE * PACED_SECONDS)} delivered when ${int(PACED_RATE)}/s are offered for ${PACED_SECONDS} s (goal >= ${int(GOALS.perSecond)}/s)`,
    `- ${meetsP99 ? 'MEETS' : 'MISSES'}: p99 emit-to-receive ${int(paced.p99)} ms at that rate (goal < ${int(GOALS.p99Ms)} ms; p50 ${int(paced.p50)} ms, max ${int(paced.max)} ms)`,
    `- INFO: one endpoint gets at most WEBHOOKS_ENDPOINT_CONCURRENCY (${process.env.WEBHOOKS_ENDPOINT_CONCURRENCY ?? 8}) deliveries at once, by design; that bounds the burst rate below`,
    `- INFO: burst of ${int(BURST_EVENTS)} events committed in ${(burst.emittedInMs / 1000).toFixed(1)} s: ${int(burst.perSecond)} delivered/s, ${int((burst.perSecond / bareRate) * 100)}% of the bare ceiling (${int(bareRate)} signed POSTs/s into the same receiver); latency p50 ${int(burst.p50)} ms, p99 ${int(burst.p99)} ms (queueing of the burst included)`,
    '',
    '| run | delivered | duplicates (same webhook-id) | delivered/s | p50 | p99 | CPU |',
    '|---|---:|---:|---:|---:|---:|---|',
    `| paced ${int(PACED_RATE)}/s | ${int(paced.delivered)} | ${paced.duplicates} | ${int(paced.perSecond)} | ${int(paced.p50)} ms | ${int(paced.p99)} ms | ${cpu(paced.cpu)} |`,
    `| burst | ${int(burst.delivered)} | ${burst.duplicates} | ${int(burst.perSecond)} | ${int(burst.p50)} ms | ${int(burst.p99)} ms | ${cpu(burst.cpu)} |`,
    `| bare: plain Node client -> receiver | ${int(BARE_REQUESTS)} | - | ${int(bareRate)} | - | - | - |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`, `WEBHOOKS_ALLOW_PRIVATE_URLS=true`), one embedded PostgreSQL (fsync on), one endpoint subscribed to `email_suppression.created`; the receiver (`bench/webhook-receiver.mjs`) is its own process and answers 200 at once',
    `- Events are written by the bench with \`writeOutboxEvents\` into the email service's outbox, ${PACED_PER_TRANSACTION} (paced) or ${BURST_PER_TRANSACTION} (burst) per transaction, then \`wakeRelay\`, exactly as a product emits them; each carries its transaction's time in \`data.emitted_at\`, and the receiver takes the latency on arrival (same clock)`,
    `- Bare ceiling: the same receiver, ${int(BARE_REQUESTS)} POSTs of a signed body of the same shape from a keep-alive Node HTTP client, ${BARE_CONCURRENCY} in flight`,
    `- Order: warm-up (${WARMUP_EVENTS} events), burst, paced, bare`,
    '',
    '```sh',
    'npm run bench:webhooks              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:webhooks -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeSection(section);
  return meetsRate && meetsP99 ? 0 : 1;
}

const writeSection = (section) => writeResultsSection(RESULTS_FILE, HEADING, section);

await runBench('webhooks.bench', main, children, () => tmp);
