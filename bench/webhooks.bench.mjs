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

const BURST_EVENTS = 10_000;
const BURST_PER_TRANSACTION = 100;
const PACED_RATE = 1000; // events/s
const PACED_SECONDS = 10;
const PACED_PER_TRANSACTION = 10;
const BARE_REQUESTS = 10_000;
const BARE_CONCURRENCY = 64;
// Each side warms up on the same work as a measured round: one burst, one bare run. With 500
// events the platform's first round ran about a fifth slower than its others (code not yet
// optimised by V8, lazily loaded modules), as the bare client's first round did before it warmed.
const WARMUP_EVENTS = BURST_EVENTS;
const GOALS = { perSecond: 1000, p99Ms: 1000, burstOfBare: 0.3, burstMoonshot: 0.6 };
const ROUNDS = 3;

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

  log(`warm-up: ${WARMUP_EVENTS} events, and the bare client once ...`);
  for (let i = 0; i < WARMUP_EVENTS / BURST_PER_TRANSACTION; i++)
    await emit(pool, workspaceId, BURST_PER_TRANSACTION);
  await waitReceived(receiver, WARMUP_EVENTS, 60_000);
  // Cold, the bare client measured about a third slower in the first round than in the others.
  await bare(Number(receiverPort));

  const measured = { bursts: [], paced: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round} of ${ROUNDS}`);
    measured.bursts.push(await burstRound(receiver, receiverPort, pool, workspaceId, groups));
    measured.paced.push(await pacedRound(receiver, pool, workspaceId, groups));
  }
  await pool.end();
  return report(measured);
}

/** A burst of BURST_EVENTS, then the bare client into the same receiver right after it. */
async function burstRound(receiver, receiverPort, pool, workspaceId, groups) {
  log(
    `  burst: ${BURST_EVENTS} events in transactions of ${BURST_PER_TRANSACTION}, as fast as they commit ...`,
  );
  await ask(receiver, 'reset');
  const cpuBefore = await cpuSnapshot(groups);
  const burstStart = Date.now();
  for (let i = 0; i < BURST_EVENTS / BURST_PER_TRANSACTION; i++)
    await emit(pool, workspaceId, BURST_PER_TRANSACTION);
  const emittedAfter = Date.now() - burstStart;
  const burst = await waitReceived(receiver, BURST_EVENTS, 120_000);
  const cpuAfter = await cpuSnapshot(groups);
  const burstSeconds = (burst.lastAt - burstStart) / 1000;
  if (process.env.BENCH_STAGES) await logStages(pool, burstStart, emittedAfter, burst.lastAt);
  log(
    `  bare: ${BARE_REQUESTS} signed POSTs from a plain Node client, ${BARE_CONCURRENCY} at once ...`,
  );
  await ask(receiver, 'reset');
  const bareRate = await bare(Number(receiverPort));
  const perSecond = burst.received / burstSeconds;
  log(
    `  ${Math.round(perSecond)} delivered/s, ${((perSecond / bareRate) * 100).toFixed(1)}% of bare (${Math.round(bareRate)}/s)`,
  );
  return {
    delivered: burst.received,
    duplicates: burst.duplicates,
    perSecond,
    bareRate,
    ratio: perSecond / bareRate,
    emittedInMs: emittedAfter,
    p50: percentile(burst.latencies, 50),
    p99: percentile(burst.latencies, 99),
    cpu: cpuOf(cpuBefore, cpuAfter, groups),
  };
}

/** PACED_RATE events/s for PACED_SECONDS, in transactions of PACED_PER_TRANSACTION. */
async function pacedRound(receiver, pool, workspaceId, groups) {
  log(
    `  paced: ${PACED_RATE} events/s for ${PACED_SECONDS} s (${PACED_PER_TRANSACTION} per transaction) ...`,
  );
  await ask(receiver, 'reset');
  const cpuBefore = await cpuSnapshot(groups);
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
  const cpuAfter = await cpuSnapshot(groups);
  return {
    delivered: paced.received,
    duplicates: paced.duplicates,
    perSecond: paced.received / ((paced.lastAt - pacedStart) / 1000),
    p50: percentile(paced.latencies, 50),
    p99: percentile(paced.latencies, 99),
    max: Math.max(...paced.latencies),
    cpu: cpuOf(cpuBefore, cpuAfter, groups),
  };
}

/** BENCH_STAGES=1: when each stage of a burst finished, and what each did per 200 ms. */
async function logStages(pool, burstStart, emittedAfter, lastReceivedAt) {
  const {
    rows: [stage],
  } = await pool.query(
    `SELECT (SELECT extract(epoch FROM max(received_at)) * 1000 FROM webhooks.events) AS intake_last,
            (SELECT extract(epoch FROM max(attempted_at)) * 1000 FROM webhooks.attempts) AS attempt_last`,
  );
  const { rows } = await pool.query(
    `SELECT floor((extract(epoch FROM t) * 1000 - $1) / 200) * 200 AS at, kind, count(*)::int AS n FROM (
       SELECT received_at AS t, 'intake' AS kind FROM webhooks.events WHERE received_at >= to_timestamp($1 / 1000.0)
       UNION ALL SELECT attempted_at, 'attempt' FROM webhooks.attempts WHERE attempted_at >= to_timestamp($1 / 1000.0)
     ) x GROUP BY 1, 2 ORDER BY 1, 2`,
    [burstStart],
  );
  const table = new Map();
  for (const row of rows) table.set(row.at, { ...table.get(row.at), [row.kind]: row.n });
  for (const [at, entry] of table)
    log(
      `    ${String(at).padStart(5)} ms: stored ${entry.intake ?? 0}, attempted ${entry.attempt ?? 0}`,
    );
  log(
    `    emitted after ${emittedAfter} ms, stored by ${Math.round(stage.intake_last - burstStart)} ms, last attempt ${Math.round(stage.attempt_last - burstStart)} ms, last received ${lastReceivedAt - burstStart} ms`,
  );
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

async function report({ bursts, paced }) {
  const int = (n) => Math.round(n).toLocaleString('en-US');
  const pct = (n) => `${(n * 100).toFixed(1)}%`;
  const cpu = (c) =>
    c
      ? `platform ${c.platform.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, receiver ${c.receiver.toFixed(2)}, emitter (bench) ${c.bench.toFixed(2)}, other ${c.other.toFixed(2)} CPUs`
      : 'not measured';
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratios = bursts.map((burst) => burst.ratio);
  const burstRatio = median(ratios);
  const expected = PACED_RATE * PACED_SECONDS;
  const pacedAll = paced.every((run) => run.delivered === expected);
  const duplicates = [...bursts, ...paced].reduce((sum, run) => sum + run.duplicates, 0);
  const meetsBurst = burstRatio >= GOALS.burstOfBare;
  const meetsRate = pacedAll && median(paced.map((run) => run.perSecond)) >= GOALS.perSecond * 0.97;
  const worstP99 = Math.max(...paced.map((run) => run.p99));
  const meetsP99 = worstP99 < GOALS.p99Ms;
  const meetsExactlyOnce = duplicates === 0;
  const every = meetsBurst && meetsRate && meetsP99 && meetsExactlyOnce;
  const lines = [
    HEADING,
    '',
    `**Result: ${every ? 'every goal met' : 'NOT every goal met'}** (median of ${ROUNDS} rounds; each round is a burst, the bare client right after it, then a paced run).`,
    '',
    `- ${meetsBurst ? 'MEETS' : 'MISSES'}: a burst of ${int(BURST_EVENTS)} events delivers ${pct(burstRatio)} of the plain client's rate in the same round (median; rounds ${ratios.map(pct).join(', ')}; goal >= ${pct(GOALS.burstOfBare)}, moonshot ${pct(GOALS.burstMoonshot)})`,
    `- ${meetsRate ? 'MEETS' : 'MISSES'}: ${paced.map((run) => int(run.delivered)).join(', ')} of ${int(expected)} delivered when ${int(PACED_RATE)}/s are offered for ${PACED_SECONDS} s (goal >= ${int(GOALS.perSecond)}/s, all delivered)`,
    `- ${meetsP99 ? 'MEETS' : 'MISSES'}: p99 emit-to-receive at that rate ${paced.map((run) => `${int(run.p99)} ms`).join(', ')} (goal < ${int(GOALS.p99Ms)} ms in every round)`,
    `- ${meetsExactlyOnce ? 'MEETS' : 'MISSES'}: ${duplicates} duplicate(s) (same webhook-id) over every round (goal 0)`,
    '',
    '| round | run | delivered | duplicates | delivered/s | of bare | p50 | p99 | CPU |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...bursts.flatMap((burst, index) => [
      `| ${index + 1} | burst (committed in ${(burst.emittedInMs / 1000).toFixed(1)} s) | ${int(burst.delivered)} | ${burst.duplicates} | ${int(burst.perSecond)} | ${pct(burst.ratio)} | ${int(burst.p50)} ms | ${int(burst.p99)} ms | ${cpu(burst.cpu)} |`,
      `| ${index + 1} | bare: plain Node client -> receiver | ${int(BARE_REQUESTS)} | - | ${int(burst.bareRate)} | - | - | - | - |`,
      `| ${index + 1} | paced ${int(PACED_RATE)}/s | ${int(paced[index].delivered)} | ${paced[index].duplicates} | ${int(paced[index].perSecond)} | - | ${int(paced[index].p50)} ms | ${int(paced[index].p99)} ms | ${cpu(paced[index].cpu)} |`,
    ]),
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    `- Embedded default (\`node dist/apps/standalone/src/main.js\`, \`LOG_LEVEL=warn\`, \`RATE_LIMITS=off\`, \`WEBHOOKS_ALLOW_PRIVATE_URLS=true\`, the webhooks settings at their defaults: windows per endpoint from ${process.env.WEBHOOKS_ENDPOINT_CONCURRENCY ?? 8} to ${process.env.WEBHOOKS_ENDPOINT_MAX_CONCURRENCY ?? 64}), one embedded PostgreSQL (fsync on), one endpoint subscribed to \`email_suppression.created\`; the receiver (\`bench/webhook-receiver.mjs\`) is its own process and answers 200 at once`,
    `- Events are written by the bench with \`writeOutboxEvents\` into the email service's outbox, ${PACED_PER_TRANSACTION} (paced) or ${BURST_PER_TRANSACTION} (burst) per transaction, then \`wakeRelay\`, exactly as a product emits them; each carries its transaction's time in \`data.emitted_at\`, and the receiver takes the latency on arrival (same clock). A burst's rate runs from its first commit to the last event received`,
    `- Bare ceiling: the same receiver, ${int(BARE_REQUESTS)} POSTs of a signed body of the same shape from a keep-alive Node HTTP client, ${BARE_CONCURRENCY} in flight, right after each burst`,
    `- Order: warm-up (${WARMUP_EVENTS} events, then ${BARE_REQUESTS} POSTs of the bare client, unmeasured), then ${ROUNDS} rounds of burst, bare, paced; \`BENCH_STAGES=1\` also prints when each stage of a burst finished`,
    '',
    '```sh',
    'npm run bench:webhooks              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:webhooks -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeSection(section);
  return every ? 0 : 1;
}

const writeSection = (section) => writeResultsSection(RESULTS_FILE, HEADING, section);

await runBench('webhooks.bench', main, children, () => tmp);
