#!/usr/bin/env node
// Phone number lookups on the embedded default, side by side in one run with the bare ceiling,
// on this machine: `POST /v1/lookup/phone-number` at 64 connections against a bare Fastify
// route doing the same `libphonenumber-js/max` parse (bench/bare-lookup.mjs), the two taking
// turns in rounds. No Idempotency-Key is sent, so neither side touches the database.
//
//   npm run bench:lookup              build, measure, print the figures and MEETS / MISSES
//   npm run bench:lookup -- --write   same, and (re)write its section of bench/RESULTS.md
//   ROUND_S=1 ROUNDS=1 npm run bench:lookup   a short smoke run
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { mkdtemp, readFile } from 'node:fs/promises';
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
const NOTES_FILE = join(root, 'bench', 'lookup.notes.md');
const HEADING = '## Phone number lookups (`npm run bench:lookup`)';
const write = process.argv.includes('--write');

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ROUND_S = Number(process.env.ROUND_S ?? 3);
const GOALS = { ratio: 0.6 };

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

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
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-lookup-'));
  const { base, adminToken } = await startPlatformOnPostgres(children, root, tmp, 'lookup');
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const token = created.api_key.secret;
  const bare = startNodeChild(children, root, 'bare-lookup', [
    join(root, 'bench/bare-lookup.mjs'),
    '0',
  ]);
  const [, bareBase] = await bare.line(/bare-lookup listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const groups = children.map((child) => child.proc.pid);
  const body = { phone_number: '+31612345678' };
  const targets = [
    {
      name: 'platform',
      url: `${base}/v1/lookup/phone-number`,
      headers: { authorization: `Bearer ${token}` },
      body,
    },
    { name: 'bare', url: `${bareBase}/lookup/phone-number`, headers: {}, body },
  ];
  log(
    `phone number lookups: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  for (const target of targets) await load(target, WARMUP_S);
  const answered = { platform: [], bare: [] };
  // CPU is taken over each side's own rounds: averaged over the whole run, each side would show
  // about half of what it uses while it is loaded.
  const [postgresGroup, platformGroup, bareGroup] = groups;
  const server = { platform: platformGroup, bare: bareGroup };
  const cpu = {
    platform: { server: 0, postgres: 0, autocannon: 0, others: 0, seconds: 0 },
    bare: { server: 0, postgres: 0, autocannon: 0, others: 0, seconds: 0 },
  };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) {
      const before = await cpuSnapshot(groups);
      answered[target.name].push(await load(target, ROUND_S));
      const after = await cpuSnapshot(groups);
      if (!before || !after) continue;
      const side = cpu[target.name];
      side.seconds += Number(after.at - before.at) / 1e9;
      side.server +=
        (after.byGroup[server[target.name]] - before.byGroup[server[target.name]]) / 100;
      side.postgres += (after.byGroup[postgresGroup] - before.byGroup[postgresGroup]) / 100;
      side.autocannon += (after.self - before.self) / 100;
      // Whatever else ran on the machine meanwhile (other processes skew a run).
      side.others += (after.busy - before.busy - (after.ours - before.ours)) / 100;
    }
  }
  return report({ answered, cpu: cpu.platform.seconds > 0 ? cpuShares(cpu) : undefined });
}

function cpuLine(cpu) {
  const f = (value) => Math.max(0, value).toFixed(2);
  const side = (name) =>
    `${name} ${f(cpu[name].server)}${name === 'platform' ? ` (PostgreSQL ${f(cpu[name].postgres)})` : ''}, autocannon ${f(cpu[name].autocannon)}, other processes ${f(cpu[name].others)}`;
  const serverBound = cpu.platform.server >= 0.9 && cpu.bare.server >= 0.9;
  const generatorRoom = cpu.platform.autocannon < 0.9 && cpu.bare.autocannon < 0.9;
  const verdict =
    serverBound && generatorRoom
      ? 'each server kept a core busy and autocannon had room to spare: the servers, not the load generator, set both rates'
      : serverBound
        ? 'autocannon was near a full core: the load generator may cap a rate'
        : 'a server had less than a core: other work on the machine skewed this run';
  return `- CPU while each side's own rounds ran (1.00 = one core busy): ${side('platform')}; ${side('bare')}. Verdict: ${verdict}`;
}

/** CPU per answered lookup, which other work on the machine skews less than the rates. */
function costLine(cpu, platform, bare) {
  const micros = (share, rate) => (share / rate) * 1e6;
  const own = micros(cpu.platform.server, platform.rate);
  const base = micros(cpu.bare.server, bare.rate);
  return `- CPU per lookup: platform ${own.toFixed(0)} us, bare ${base.toFixed(0)} us (bare / platform ${((base / own) * 100).toFixed(1)}%)`;
}

/** Each side's CPU seconds per second of its own rounds (1 = one core kept busy). */
function cpuShares(cpu) {
  const share = (side, key) => side[key] / side.seconds;
  return Object.fromEntries(
    Object.entries(cpu).map(([name, side]) => [
      name,
      {
        server: share(side, 'server'),
        postgres: share(side, 'postgres'),
        autocannon: share(side, 'autocannon'),
        others: share(side, 'others'),
      },
    ]),
  );
}

async function report({ answered, cpu }) {
  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.requests, 0) /
    runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99 = (runs) => Math.max(...runs.map((run) => run.p99));
  const platform = { rate: rate(answered.platform), p99: p99(answered.platform) };
  const bare = { rate: rate(answered.bare), p99: p99(answered.bare) };
  const ratio = platform.rate / bare.rate;
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      ratio >= GOALS.ratio,
      `phone number lookups ${Math.round(platform.rate)}/s = ${(ratio * 100).toFixed(1)}% of bare (goal >= ${GOALS.ratio * 100}%)`,
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
    `| phone number lookups at ${CONNECTIONS} connections | ${Math.round(platform.rate)}/s, p99 ${platform.p99} ms | ${Math.round(bare.rate)}/s, p99 ${bare.p99} ms | ${(ratio * 100).toFixed(1)}% |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`) on one embedded PostgreSQL (fsync on): gateway (API key, body validation) -> verify-lookup-preferences -> `libphonenumber-js/max`; no Idempotency-Key, so no database write',
    `- Answered: autocannon, ${CONNECTIONS} connections, \`{"phone_number":"+31612345678"}\`; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. Bare: one Fastify route with the same parse and the same JSON out, no auth, no validation, no transport hop`,
    cpu ? cpuLine(cpu) : '- CPU: not measured',
    ...(cpu ? [costLine(cpu, platform, bare)] : []),
    '',
    '```sh',
    'npm run bench:lookup              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:lookup -- --write   # same, and rewrite this section',
    '```',
    '',
    // What changed and where the time goes: kept by hand beside this script.
    (await readFile(NOTES_FILE, 'utf8')).trimEnd(),
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('lookup.bench', main, children, () => tmp);
