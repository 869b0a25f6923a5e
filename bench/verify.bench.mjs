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

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUND_S = Number(process.env.ROUND_S ?? 3);
const GOALS = { createP99: 50, checkP99: 20 };
const OUR_NUMBER = '+31612340000';

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

/** Phone numbers, one per create, distinct per side (valid Dutch mobiles). */
function numbers(start) {
  let next = start;
  return () => `+316${String(next++).padStart(8, '0')}`;
}

/**
 * One autocannon run: `body(index)` gives each request its body; answers other than 200 fail
 * the bench. Resolves to the figures and the bodies answered 200.
 */
async function load(target, seconds, body) {
  const sent = [];
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json', ...target.headers },
    requests: [
      {
        setupRequest: (request) => {
          const payload = body();
          sent.push(payload);
          return { ...request, body: JSON.stringify(payload) };
        },
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99: result.latency.p99,
    sent,
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
    side.created.push(...run.sent.map((body) => body.to.phone_number));
    if (record) figures.create[side.name].push(run);
  };
  for (const side of sides) await create(side, WARMUP_S, false);
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? [...sides].reverse() : sides) await create(side, ROUND_S, true);
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
    '- Switchboard: the embedded default (`LOG_LEVEL=warn`, `RATE_LIMITS=off`, `VERIFY_MAX_CHECKS=20`, `VERIFY_SENDS_PER_HOUR=1000`) on one embedded PostgreSQL (fsync on): gateway -> verify-lookup-preferences (create: one transaction, then the SMS service accepts the passcode message over the in-process transport, then the attempt is marked sent) -> SMPP to a local SMSC in its own process',
    `- Answered: autocannon, ${CONNECTIONS} connections; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. Checks go round the verifications each side created, so none reaches its limit. Bare: Fastify + \`pg\` running the verify service's SQL on the same PostgreSQL (its own schema), no auth, no validation, no transport hop, no SMS accept`,
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
