#!/usr/bin/env node
// SMS on the embedded default, side by side in one run with the bare ceilings, on this machine:
//   1. accepted sends: `POST /v1/sms/messages` at 64 connections against a bare Fastify + `pg`
//      route (bench/bare-sms.mjs) running the service's own accept SQL, the two taking turns in
//      rounds; the platform's submit workers hand both sides' messages to the SMSC meanwhile;
//   2. submits: N messages accepted in batches of 100, from the first request to the last one the
//      SMSC received, through one bind with a window of 10, against a bare `smpp` client
//      (bench/bare-smpp.mjs) submitting the same N texts with a window of 10;
//   3. receipts: a DELIVRD receipt for each of those N submits, from the first deliver_sm to the
//      last message read back `delivered` in PostgreSQL, against the same receipts sent to the bare
//      client, which answers each at once.
// The SMSC (two instances of the test SMSC, one per side) runs in its own process (bench/smsc.mjs).
//
//   npm run bench:sms              build, measure, print the figures and MEETS / MISSES
//   npm run bench:sms -- --write   same, and (re)write its section of bench/RESULTS.md
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  apiCall,
  assertLoopback,
  cpuSnapshot,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## SMS (`npm run bench:sms`)';
const write = process.argv.includes('--write');
/** Diagnostics (not with --write): skip the accepted rounds; print what PostgreSQL was busy with. */
const skipAccepted = process.argv.includes('--skip-accepted');
const sampleQueries = process.argv.includes('--sample-queries');
if (write && (skipAccepted || sampleQueries)) {
  process.stderr.write('sms.bench: --write records only the standard run\n');
  process.exit(2);
}

const CONNECTIONS = 64;
const WARMUP_S = 2;
const ROUNDS = 4;
const ROUND_S = 3;
const SUBMITS = 5000;
const WINDOW = 10;
const RECEIPT_CONCURRENCY = 50;
const SENDER = 'Bench';
const GOALS = {
  ratio: 0.6,
  acceptedPerSecond: 1000,
  p99Ms: 100,
  submitRatio: 0.7,
  receiptsPerSecond: 1000,
};

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Asks the SMSC process to run a command; resolves with its result. */
function smscAsk(smsc, cmd, args) {
  const id = Math.random().toString(36).slice(2);
  return new Promise((done, fail) => {
    const onMessage = (message) => {
      if (message.id !== id) return;
      smsc.proc.off('message', onMessage);
      if (message.error) fail(new Error(message.error));
      else done(message.result);
    };
    smsc.proc.on('message', onMessage);
    smsc.proc.send({ id, cmd, ...args });
  });
}

/** Polls `check` every 50 ms until it answers true, or fails after `timeoutMs`. */
async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** One autocannon run of `seconds` against a target; fails on any error or non-2xx answer. */
async function load(target, seconds) {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...target.headers },
    body: JSON.stringify(target.body),
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99 };
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-sms-'));
  const smsc = startNodeChild(children, root, 'SMSC', [join(root, 'bench/smsc.mjs')]);
  const [, platformSmsc, bareSmsc] = await smsc.line(/\{"platform":"([^"]+)","bare":"([^"]+)"\}/);
  const { databaseUrl, base, adminToken } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'sms',
    {
      SMPP_URL: `${platformSmsc}?window=${WINDOW}&tps=100000`,
    },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const workspaceId = created.workspace.id;
  const token = created.api_key.secret;
  await apiCall(base, 'POST', `/admin/v1/workspaces/${workspaceId}/sms-senders`, adminToken, {
    sender: SENDER,
  });
  const bare = startNodeChild(children, root, 'bare-sms', [join(root, 'bench/bare-sms.mjs'), '0'], {
    DATABASE_URL: databaseUrl,
    BENCH_WORKSPACE_ID: workspaceId,
  });
  const [, bareBase] = await bare.line(/bare-sms listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const count = async (sql, params) => (await pool.query(sql, params)).rows[0].n;
  const groups = children.map((child) => child.proc.pid);
  const body = {
    to: '+31612345678',
    from: SENDER,
    text: 'Your order has shipped.',
    category: 'transactional',
  };
  const targets = [
    {
      name: 'platform',
      url: `${base}/v1/sms/messages`,
      headers: { authorization: `Bearer ${token}` },
      body,
    },
    { name: 'bare', url: `${bareBase}/messages`, headers: {}, body },
  ];

  // 1. accepted sends
  log(
    `accepted sends: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  if (!skipAccepted) for (const target of targets) await load(target, WARMUP_S);
  const accepted = { platform: [], bare: [] };
  const cpuBefore = await cpuSnapshot(groups);
  for (let round = 0; round < (skipAccepted ? 0 : ROUNDS); round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) accepted[target.name].push(await load(target, ROUND_S));
  }
  const cpuAfter = await cpuSnapshot(groups);
  log('waiting for the submit queue to drain ...');
  await until(
    'the accepted messages to be submitted',
    async () =>
      (await count(
        `SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages WHERE status = 'accepted'`,
      )) === 0,
    600_000,
  );

  // 2. submits
  log(`submits: ${SUBMITS} messages through the platform's bind, then the bare client's ...`);
  // The messages are accepted while the SMSC is away, so the queue holds all of them when it
  // comes back: the rate is then the pipeline's own (claim, submit, record), as the bare client's
  // is its own, both measured by the SMSC from the first submit to the last.
  await smscAsk(smsc, 'stop', { which: 'platform' });
  for (let b = 0; b < SUBMITS / 100; b += 4) {
    await Promise.all(
      [0, 1, 2, 3].map((k) =>
        apiCall(base, 'POST', '/v1/sms/batches', token, {
          messages: Array.from({ length: 100 }, (_, i) => ({
            to: `+3161${String((b + k) * 100 + i).padStart(7, '0')}`,
            from: SENDER,
            text: `sub ${(b + k) * 100 + i}`,
            category: 'transactional',
          })),
        }),
      ),
    );
  }
  const submitSampler = sampleQueries ? sampleBusyQueries(databaseUrl) : undefined;
  const started = Date.now();
  await smscAsk(smsc, 'restart', { which: 'platform' });
  await until(
    'the SMSC to receive every submit',
    async () => (await smscAsk(smsc, 'count', { which: 'platform', prefix: 'sub ' })) >= SUBMITS,
    600_000,
  );
  const platformSubmitMs = Date.now() - started;
  if (submitSampler) log(await submitSampler.stop());
  const bareClient = startNodeChild(children, root, 'bare-smpp', [
    join(root, 'bench/bare-smpp.mjs'),
    bareSmsc,
    String(SUBMITS),
    'sub',
    String(WINDOW),
  ]);
  await bareClient.line(/"ms":([\d.]+)/);
  const platformRate = await smscAsk(smsc, 'rate', { which: 'platform', prefix: 'sub ' });
  const bareRate = await smscAsk(smsc, 'rate', { which: 'bare', prefix: 'sub ' });

  // 3. receipts
  log(`receipts: ${SUBMITS} DELIVRD receipts to the platform, then to the bare client ...`);
  const sampler = sampleQueries ? sampleBusyQueries(databaseUrl) : undefined;
  const receiptsStarted = Date.now();
  await smscAsk(smsc, 'receipts', {
    which: 'platform',
    prefix: 'sub ',
    concurrency: RECEIPT_CONCURRENCY,
  });
  await until(
    'every receipt to be applied',
    async () =>
      (await count(
        `SELECT count(*)::int AS n FROM sms_whatsapp.sms_messages WHERE workspace_id = $1 AND status = 'delivered' AND text LIKE 'sub %'`,
        [workspaceId],
      )) >= SUBMITS,
    600_000,
  );
  const platformReceiptsMs = Date.now() - receiptsStarted;
  if (sampler) log(await sampler.stop());
  const bareReceipts = await smscAsk(smsc, 'receipts', {
    which: 'bare',
    prefix: 'sub ',
    concurrency: RECEIPT_CONCURRENCY,
  });
  await pool.end();
  return report({
    accepted,
    submits: {
      platform: platformRate.perSecond,
      bare: bareRate.perSecond,
      // From the SMSC's restart: the bind's reconnection (back-off) included.
      afterRestartMs: platformSubmitMs,
    },
    receipts: {
      platform: SUBMITS / (platformReceiptsMs / 1000),
      bare: SUBMITS / (bareReceipts.ms / 1000),
    },
    cpu: cpuShare(cpuBefore, cpuAfter, groups),
  });
}

/** Samples pg_stat_activity every 20 ms; `stop()` answers the busiest statements. */
function sampleBusyQueries(databaseUrl) {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const seen = new Map();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await pool.query(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS q, wait_event FROM pg_stat_activity
         WHERE state = 'active' AND pid <> pg_backend_pid()`,
      );
      samples += 1;
      for (const row of rows) {
        const key = `${row.wait_event ?? 'cpu'} | ${row.q}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await pool.end();
      const top = [...seen].sort((a, b) => b[1] - a[1]).slice(0, 12);
      return [
        `busy statements over ${samples} samples:`,
        ...top.map(([q, n]) => `${n}\t${q}`),
      ].join('\n');
    },
  };
}

function cpuShare(before, after, groups) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const share = (pid) => (after.byGroup[pid] - before.byGroup[pid]) / 100 / seconds;
  const [smsc, postgres, platform, bare] = groups;
  return {
    platform: share(platform),
    bare: share(bare),
    postgres: share(postgres),
    smsc: share(smsc),
    other: Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds),
  };
}

async function report({ accepted, submits, receipts, cpu }) {
  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.requests, 0) /
    runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99 = (runs) => Math.max(...runs.map((run) => run.p99));
  const platform = { rate: rate(accepted.platform), p99: p99(accepted.platform) };
  const bare = { rate: rate(accepted.bare), p99: p99(accepted.bare) };
  const ratio = platform.rate / bare.rate;
  const submitRatio = submits.platform / submits.bare;
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      ratio >= GOALS.ratio,
      `accepted sends ${Math.round(platform.rate)}/s = ${(ratio * 100).toFixed(1)}% of bare (goal >= ${GOALS.ratio * 100}%)`,
    ],
    [
      platform.rate >= GOALS.acceptedPerSecond,
      `accepted sends ${Math.round(platform.rate)}/s (goal >= ${GOALS.acceptedPerSecond}/s)`,
    ],
    [
      platform.p99 < GOALS.p99Ms,
      `accepted p99 ${platform.p99} ms, worst round (goal < ${GOALS.p99Ms} ms)`,
    ],
    [
      submitRatio >= GOALS.submitRatio,
      `submits ${Math.round(submits.platform)}/s = ${(submitRatio * 100).toFixed(1)}% of the bare client (goal >= ${GOALS.submitRatio * 100}%)`,
    ],
    [
      receipts.platform >= GOALS.receiptsPerSecond,
      `receipts applied ${Math.round(receipts.platform)}/s (goal >= ${GOALS.receiptsPerSecond}/s)`,
    ],
  ];
  const met = goals.every(([ok]) => ok);
  const lines = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}.**`,
    '',
    ...goals.map(([ok, text]) => `- ${verdict(ok)}: ${text}`),
    '',
    '| measure | Switchboard | bare | Switchboard / bare |',
    '|---|---:|---:|---:|',
    `| accepted sends at ${CONNECTIONS} connections | ${Math.round(platform.rate)}/s, p99 ${platform.p99} ms | ${Math.round(bare.rate)}/s, p99 ${bare.p99} ms | ${(ratio * 100).toFixed(1)}% |`,
    `| submits through one bind, window ${WINDOW} (${SUBMITS} messages) | ${Math.round(submits.platform)}/s | ${Math.round(submits.bare)}/s | ${(submitRatio * 100).toFixed(1)}% |`,
    `| receipts (${SUBMITS}) applied / answered | ${Math.round(receipts.platform)}/s | ${Math.round(receipts.bare)}/s | ${((receipts.platform / receipts.bare) * 100).toFixed(1)}% |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`) on one embedded PostgreSQL (fsync on), `SMPP_URL` with `window=10&tps=100000` to the test SMSC (libs/testing) in its own process; the sender an alphanumeric one registered by the operator',
    `- Accepted: autocannon, ${CONNECTIONS} connections, a one-segment transactional text; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. Bare: Fastify + \`pg\` (pool of 10) with the service's own draft and accept SQL (sender read, then one transaction with the opt-out read and the insert), no auth, no validation; its jobs are submitted by the platform's workers like the platform's own`,
    `- Submits: ${SUBMITS} messages accepted in batches of 100 while the platform's SMSC is stopped, then the SMSC restarted: submits per second as the SMSC received them, from the first to the last (${Math.round(submits.afterRestartMs)} ms from the restart to the last, the bind's reconnection back-off included); bare: the \`smpp\` client alone, one bind, ${WINDOW} submits in flight, the same texts encoded by the platform's encodeSms, to a second SMSC instance of the same process, measured the same way`,
    `- Receipts: the SMSC sends a DELIVRD receipt for each of the ${SUBMITS} submits, ${RECEIPT_CONCURRENCY} deliver_sm in flight; Switchboard timed until all ${SUBMITS} read back \`delivered\` in PostgreSQL (each receipt recorded before its deliver_sm_resp, then applied from the queue); bare: until the client answered every deliver_sm`,
    cpu
      ? `- CPU during the accepted rounds: platform ${cpu.platform.toFixed(2)}, bare ${cpu.bare.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, SMSC ${cpu.smsc.toFixed(2)}, other processes ${cpu.other.toFixed(2)} CPUs`
      : '- CPU: not measured',
    '',
    '```sh',
    'npm run bench:sms              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:sms -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('sms.bench', main, children, () => tmp);
