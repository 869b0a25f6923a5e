#!/usr/bin/env node
// Verifications on the embedded default, side by side in one run with the bare ceiling, on this
// machine: `POST /v1/verify/verifications` (each to a new phone number, so every one inserts and
// sends) and `POST /v1/verify/verifications/check` (a wrong code against those verifications,
// each checked far fewer times than its limit) at 64 connections, against Fastify + `pg` doing
// the verify service's own SQL (bench/bare-verify.mjs), the two taking turns in rounds. The
// passcode SMS goes through the SMS service to a local SMSC (bench/smsc.mjs); its delivery is
// not part of a create's latency.
//
//   npm run bench:verify              build, measure, print the figures and MEETS / MISSES
//   npm run bench:verify -- --write   same, and (re)write its section of bench/RESULTS.md
//   ROUND_S=1 ROUNDS=1 npm run bench:verify   a short smoke run
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
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
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Verifications (`npm run bench:verify`)';
const write = process.argv.includes('--write');

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUND_S = Number(process.env.ROUND_S ?? 3);
const GOALS = { createP99: 50, checkP99: 20 };
const OUR_NUMBER = '+31612340000';
const CHECK_POOL = Number(process.env.CHECK_POOL ?? 3000);

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

/** Phone numbers, one per create, distinct per side (valid Dutch mobiles). */
function numbers(start) {
  let next = start;
  return () => `+316${String(next++).padStart(8, '0')}`;
}

/**
 * One autocannon run: `body()` gives each request its body; answers other than 200 fail the
 * bench. Resolves to the figures and the answers (parsed), so only what was answered counts:
 * the last bodies set up when the run stops are never sent.
 */
async function load(target, seconds, body) {
  const answered = [];
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...target.headers },
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }),
        onResponse: (status, responseBody) => {
          if (status === 200) answered.push(JSON.parse(responseBody));
        },
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)})`,
    );
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99: result.latency.p99,
    answered,
  };
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-verify-'));
  const smsc = startNodeChild(children, root, 'SMSC', [join(root, 'bench/smsc.mjs')]);
  const [, platformSmsc] = await smsc.line(/\{"platform":"([^"]+)","bare":"([^"]+)"\}/);
  const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'verify',
    {
      SMPP_URL: `${platformSmsc}?window=50&tps=100000`,
      VERIFY_MAX_CHECKS: '20',
      VERIFY_SENDS_PER_HOUR: '1000',
    },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const token = created.api_key.secret;
  await apiCall(base, 'POST', '/admin/v1/numbers', adminToken, {
    number: OUR_NUMBER,
    number_type: 'mobile',
    capabilities: ['sms'],
  });
  await apiCall(base, 'POST', '/v1/numbers/orders', token, { number: OUR_NUMBER });
  const bare = startNodeChild(children, root, 'bare-verify', [
    join(root, 'bench/bare-verify.mjs'),
    '0',
    databaseUrl,
  ]);
  const [, bareBase] = await bare.line(/bare-verify listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const groups = children.map((child) => child.proc.pid);
  const sides = [
    {
      name: 'platform',
      url: `${base}/v1/verify/verifications`,
      headers: { authorization: `Bearer ${token}` },
      phone: numbers(10_000_000),
      created: [],
    },
    {
      name: 'bare',
      url: `${bareBase}/verifications`,
      headers: {},
      phone: numbers(50_000_000),
      created: [],
    },
  ];
  const figures = { create: { platform: [], bare: [] }, check: { platform: [], bare: [] } };
  const cpuBefore = await cpuSnapshot(groups);
  log(
    `verification creates: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  const create = async (side, seconds, record) => {
    const run = await load(side, seconds, () => ({ to: { phone_number: side.phone() } }));
    side.created.push(...run.answered.map((answer) => answer.to.phone_number));
    if (process.env.BENCH_DEBUG)
      log(`${side.name}: ${run.requests} creates answered, ${run.answered.length} recorded`);
    if (record) figures.create[side.name].push(run);
  };
  for (const side of sides) await create(side, WARMUP_S, false);
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? [...sides].reverse() : sides) await create(side, ROUND_S, true);
  // Enough verifications that no check reaches one's limit (20 checks each): made unmeasured.
  log(`making ${CHECK_POOL} verifications per side to check ...`);
  for (const side of sides)
    for (let round = 0; side.created.length < CHECK_POOL && round < 30; round++)
      await create(side, 2, false);
  // The creates left passcodes to deliver (SMS submits, receipts, events): the bare side has
  // none, so checks are measured once the platform has caught up, as on a settled system.
  log(`waiting for the platform's deliveries of the creates ...`);
  figures.caughtUpMs = await waitForCaughtUp(databaseUrl);
  log(`caught up in ${figures.caughtUpMs} ms`);
  log(
    `checks (a wrong code): warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side ...`,
  );
  const check = async (side, seconds, record) => {
    let index = 0;
    const target = { ...side, url: `${side.url}/check` };
    const run = await load(target, seconds, () => ({
      to: { phone_number: side.created[index++ % side.created.length] },
      code: '0000000',
    }));
    if (record) figures.check[side.name].push(run);
  };
  for (const side of sides) await check(side, WARMUP_S, false);
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? [...sides].reverse() : sides) await check(side, ROUND_S, true);
  const cpuAfter = await cpuSnapshot(groups);
  return report(figures, cpuShare(cpuBefore, cpuAfter, groups));
}

/** Waits until no service has a job due or an event unpublished; answers the milliseconds. */
async function waitForCaughtUp(databaseUrl, limitMs = 120_000) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    const { rows: tables } = await client.query(
      `SELECT table_schema, table_name FROM information_schema.tables
       WHERE table_name IN ('jobs', 'outbox') AND table_schema NOT LIKE 'bare%'`,
    );
    const pending = tables
      .map(({ table_schema: schema, table_name: table }) =>
        table === 'jobs'
          ? `(SELECT count(*) FROM "${schema}".jobs WHERE run_at <= now())`
          : `(SELECT count(*) FROM "${schema}".outbox WHERE published_at IS NULL)`,
      )
      .join(' + ');
    while (Date.now() - started < limitMs) {
      const { rows } = await client.query(`SELECT ${pending} AS n`);
      if (Number(rows[0].n) === 0) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the platform had work left after ${limitMs} ms`);
  } finally {
    await client.end();
  }
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
  };
}

async function report(figures, cpu) {
  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.requests, 0) /
    runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99 = (runs) => Math.max(...runs.map((run) => run.p99));
  const summary = (runs) => ({ rate: rate(runs), p99: p99(runs) });
  const create = { platform: summary(figures.create.platform), bare: summary(figures.create.bare) };
  const check = { platform: summary(figures.check.platform), bare: summary(figures.check.bare) };
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      create.platform.p99 < GOALS.createP99,
      `create p99 ${create.platform.p99} ms (goal < ${GOALS.createP99} ms, delivery excluded)`,
    ],
    [
      check.platform.p99 < GOALS.checkP99,
      `check p99 ${check.platform.p99} ms (goal < ${GOALS.checkP99} ms)`,
    ],
  ];
  const met = goals.every(([ok]) => ok);
  const row = (name, measure) =>
    `| ${name} at ${CONNECTIONS} connections | ${Math.round(measure.platform.rate)}/s, p99 ${measure.platform.p99} ms | ${Math.round(measure.bare.rate)}/s, p99 ${measure.bare.p99} ms | ${((measure.platform.rate / measure.bare.rate) * 100).toFixed(1)}% |`;
  const lines = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}.**`,
    '',
    ...goals.map(([ok, text]) => `- ${verdict(ok)}: ${text}`),
    '',
    '| measure | Switchboard | bare | Switchboard / bare (rate) |',
    '|---|---:|---:|---:|',
    row('verification creates (each a new recipient, SMS accepted)', create),
    row('checks (a wrong code)', check),
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`LOG_LEVEL=warn`, `RATE_LIMITS=off`, `VERIFY_MAX_CHECKS=20`, `VERIFY_SENDS_PER_HOUR=1000`) on one embedded PostgreSQL (fsync on): gateway -> verify-lookup-preferences (creates without an Idempotency-Key group-committed, six statements per batch; then the SMS service accepts each passcode message over the in-process transport in its group commit of single sends, and the acceptances are recorded in a group commit; checks group-committed, one statement per batch) -> SMPP to a local SMSC in its own process',
    `- Answered: autocannon, ${CONNECTIONS} connections; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. Checks go round the verifications each side created, so none reaches its limit; they start once the platform has delivered the creates' passcodes (no job due, no event unpublished: ${figures.caughtUpMs} ms after the last create), since the bare side has none to deliver. Bare: Fastify + \`pg\` running the verify service's SQL on the same PostgreSQL (its own schema), no auth, no validation, no transport hop, no SMS accept`,
    '- Reading: the bare ceiling, one transaction per create or check, misses both goals on this machine too (each request is several round trips and a WAL flush, and 64 connections queue on them); the platform answers more and faster than it by batching. At 64 connections a p99 of 50 ms needs about 1,300 creates/s held steadily, and 20 ms about 3,200 checks/s with little spread; the creates are bound by the passcode deliveries sharing the same two cores (about 15 round trips each across the verify and SMS services), the checks by the gateway fixed cost per request (see the lookup section)',
    cpu
      ? `- CPU over the run: platform ${cpu.platform.toFixed(2)}, bare ${cpu.bare.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, SMSC ${cpu.smsc.toFixed(2)} CPUs`
      : '- CPU: not measured',
    '',
    '```sh',
    'npm run bench:verify              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:verify -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('verify.bench', main, children, () => tmp);
