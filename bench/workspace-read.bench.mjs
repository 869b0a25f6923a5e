#!/usr/bin/env node
// Throughput of `GET /v1/workspace` in the embedded default against bare Fastify, same run.
//
//   npm run bench                 build, measure, print the table
//   npm run bench -- --write      same, and rewrite bench/RESULTS.md with the figures (not
//                                 when the run is inconclusive); its hand-written `## ` sections
//                                 (any heading but Run and How to rerun) are kept, after the figures
//
// Exit status: 0 target met; 1 not met, or the run failed; 3 inconclusive (other processes kept
// the machine busy during a measured run, which skews the ratio: rerun on a quiet machine).
//
// Diagnostics (never written to RESULTS.md):
//   --log-level=<level>   LOG_LEVEL of the platform (default warn)
//   --cpu-prof            run the platform under `node --cpu-prof` and print its hottest functions
//   --duration=<s>        measured seconds per target (default 10)
//   --rate-limits=<v>     RATE_LIMITS of the platform instead of the bench's (e.g. `off`)
//
// Each target runs in its own child process on 127.0.0.1; the load comes from autocannon in this
// process. Both targets are started first, then each is warmed up and measured in turn. Any
// error, timeout or non-2xx answer fails the run. The whole run is bounded by a deadline and the
// children are stopped on every way out (SIGTERM first, then SIGKILL of their process group).
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');

const TARGET_RATIO = 0.4;
const CONNECTIONS = 50;
const PIPELINING = 1;
const WARMUP_S = 2;
const DEFAULT_DURATION_S = 10;
const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 20_000;
const REQUEST_TIMEOUT_S = 10;
/** Platform RATE_LIMITS for the run: the read group's quota at its maximum, other groups default. */
const READ_QUOTA = 'read=1000000000';
/** CPUs' worth of work by processes other than the bench and its targets that makes a run noisy. */
const BUSY_MACHINE_CPUS = 0.25;

// ---------------------------------------------------------------- arguments
const options = {
  write: false,
  cpuProf: false,
  logLevel: 'warn',
  durationS: DEFAULT_DURATION_S,
  rateLimits: undefined,
};
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split(/=(.*)/s);
  if (key === '--write') options.write = true;
  else if (key === '--cpu-prof') options.cpuProf = true;
  else if (key === '--log-level' && value) options.logLevel = value;
  else if (key === '--duration' && Number(value) > 0 && Number(value) <= 60)
    options.durationS = Number(value);
  else if (key === '--rate-limits' && value) options.rateLimits = value;
  else usage(`unknown or invalid argument ${JSON.stringify(arg)}`);
}
if (
  options.write &&
  (options.cpuProf ||
    options.logLevel !== 'warn' ||
    options.durationS !== DEFAULT_DURATION_S ||
    options.rateLimits)
) {
  usage(
    '--write records only the standard run: drop --cpu-prof, --log-level, --duration and --rate-limits',
  );
}
function usage(message) {
  process.stderr.write(
    `workspace-read.bench: ${message}\nusage: node bench/workspace-read.bench.mjs [--write] [--log-level=<level>] [--cpu-prof] [--duration=<s>] [--rate-limits=<RATE_LIMITS>]\n`,
  );
  process.exit(2);
}

// Start-up (embedded PostgreSQL, migrations) + 2 x (warm-up + run) + stopping, with room to spare.
const DEADLINE_MS =
  START_TIMEOUT_MS + 2 * (WARMUP_S + options.durationS) * 1000 + 2 * STOP_GRACE_MS + 30_000;

// ---------------------------------------------------------------- children
const children = new Set();
const everStarted = [];
let failing = false;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function log(line) {
  process.stdout.write(`${line}\n`);
}

/** Starts `node <args>` in its own process group and resolves once stdout matches `ready`. */
function startChild(name, args, { env = {}, ready, onOutput }) {
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const child = { name, proc, tail: [], lines: 0, exitCode: undefined, url: undefined };
  child.exited = new Promise((done) => {
    proc.on('exit', (code, signal) => {
      child.exitCode = code ?? signal;
      children.delete(child);
      done();
    });
  });
  children.add(child);
  everStarted.push(child);
  let onLine = () => {};
  for (const stream of [proc.stdout, proc.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop();
      for (const line of parts) {
        child.lines += 1;
        child.tail.push(line);
        if (child.tail.length > 30) child.tail.shift();
        onOutput?.(line);
        onLine(line);
      }
    });
  }
  child.ready = new Promise((done, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `${name} did not print its ready line within ${START_TIMEOUT_MS / 1000} s${tailOf(child)}`,
          ),
        ),
      START_TIMEOUT_MS,
    );
    onLine = (line) => {
      const match = ready.exec(line);
      if (match && !child.url) {
        child.url = match[1];
        clearTimeout(timer);
        done(child);
      }
    };
    child.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${child.exitCode}) before it was ready${tailOf(child)}`));
    });
  });
  child.ready.catch(() => {});
  return child;
}

function tailOf(child) {
  return child.tail.length ? `; its last output:\n    ${child.tail.join('\n    ')}` : '';
}

/**
 * SIGTERM, wait for a clean exit, then SIGKILL whatever is left of its process group: a platform
 * stopped before it installed its signal handlers dies at once and would leave PostgreSQL behind.
 */
async function stopChild(child) {
  if (child.exitCode === undefined) {
    try {
      child.proc.kill('SIGTERM');
    } catch {
      /* already exited */
    }
    const clean = await Promise.race([
      child.exited.then(() => true),
      sleep(STOP_GRACE_MS).then(() => false),
    ]);
    if (!clean)
      log(
        `${child.name} did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killing its process group`,
      );
  }
  killGroup(child);
  await Promise.race([child.exited, sleep(2_000)]);
}

function killGroup(child) {
  try {
    process.kill(-child.proc.pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}

// Last resort on any exit path: nothing we started outlives us.
process.on('exit', () => {
  for (const child of everStarted) killGroup(child);
});

const cleanups = [];
async function cleanup() {
  await Promise.all(everStarted.map(stopChild));
  for (const fn of cleanups.splice(0)) await fn().catch(() => {});
}

async function fail(message) {
  if (failing) return;
  failing = true;
  process.stderr.write(`\n*** BENCH FAILED: ${message}\n\n`);
  await cleanup();
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void fail(`interrupted by ${signal}`));
process.on(
  'unhandledRejection',
  (err) => void fail(err instanceof Error ? err.message : String(err)),
);
setTimeout(
  () => void fail(`the run took longer than its ${DEADLINE_MS / 1000} s deadline`),
  DEADLINE_MS,
).unref();

// ---------------------------------------------------------------- HTTP helpers
function assertLoopback(url) {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1')
    throw new Error(`refusing to load ${url}: only 127.0.0.1 targets are allowed`);
}

async function request(url, init = {}) {
  assertLoopback(url);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, text };
}

async function waitReady(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < until) {
    try {
      const { status } = await request(url);
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = err.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} was not ready within ${timeoutMs / 1000} s (${last})`);
}

/** One autocannon run; fails the bench on any error, timeout or non-2xx answer. */
async function load(label, url, headers, durationS) {
  assertLoopback(url);
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    duration: durationS,
    timeout: REQUEST_TIMEOUT_S,
  });
  const problems = [];
  if (result.errors) problems.push(`${result.errors} errors`);
  if (result.timeouts) problems.push(`${result.timeouts} timeouts`);
  if (result.non2xx)
    problems.push(`${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)})`);
  if (result.statusCodeStats?.['429'])
    problems.push(
      `429 means rate limited: the platform runs with RATE_LIMITS=${READ_QUOTA}, check that it still reads it`,
    );
  if (result.resets) problems.push(`${result.resets} connection resets`);
  if (!result['2xx']) problems.push('no 2xx answer at all');
  if (problems.length) throw new Error(`${label}: ${problems.join(', ')}`);
  return result;
}

// ---------------------------------------------------------------- the run
async function main() {
  const started = Date.now();
  const dataDir = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as `postgres` and would then keep
  // its data elsewhere (/var/lib/switchboard/...), outliving the run. Let it in, so it stays here.
  await chmod(dataDir, 0o755);
  const profDir = join(dataDir, 'cpu-prof');
  const adminToken = `sbadm_bench_${Date.now().toString(36)}`;

  const mainJs = join(root, 'dist/apps/platform/src/main.js');
  try {
    await readFile(mainJs);
  } catch {
    throw new Error(
      `${mainJs} is missing: run \`node tools/build.mjs\` first (npm run bench does)`,
    );
  }

  log(
    `starting bare Fastify and the embedded platform (LOG_LEVEL=${options.logLevel}, RATE_LIMITS=${options.rateLimits ?? READ_QUOTA}${options.cpuProf ? ', --cpu-prof' : ''}) ...`,
  );
  const bare = startChild('bare Fastify', [join(root, 'bench/hello-fastify.mjs'), '0'], {
    ready: /listening at (http:\/\/127\.0\.0\.1:\d+)/,
  });
  const platform = startChild(
    'embedded platform',
    [...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), mainJs],
    {
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(dataDir, 'data'),
        PLATFORM_ADMIN_TOKEN: adminToken,
        LOG_LEVEL: options.logLevel,
        // The limiter stays on (its per-request cost is part of the figure) with a `read` quota
        // no run can spend; the default (500 a minute) would answer 429 within a second.
        RATE_LIMITS: options.rateLimits ?? READ_QUOTA,
      },
      ready: /Switchboard is running at (http:\/\/127\.0\.0\.1:\d+)/,
      // Should the platform still move its PostgreSQL data out of the temporary directory, that
      // copy is removed too (cleanups run after the children have stopped).
      onOutput: (line) => {
        const moved = /PostgreSQL data is kept in (\/\S+\/postgres-[0-9a-f]+) instead/.exec(line);
        if (moved) cleanups.push(() => rm(moved[1], { recursive: true, force: true }));
      },
    },
  );
  await Promise.all([bare.ready, platform.ready]);
  await Promise.all([
    waitReady(`${bare.url}/`, 10_000),
    waitReady(`${platform.url}/readyz`, 30_000),
  ]);
  log(
    `  bare Fastify at ${bare.url}, platform at ${platform.url} (both up after ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );

  const created = await request(`${platform.url}/admin/v1/workspaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  if (created.status !== 201)
    throw new Error(
      `POST /admin/v1/workspaces answered ${created.status}: ${created.text.slice(0, 300)}`,
    );
  const apiKey = JSON.parse(created.text)?.api_key?.secret;
  if (!apiKey)
    throw new Error(
      `POST /admin/v1/workspaces returned no api_key.secret: ${created.text.slice(0, 300)}`,
    );
  const workspaceHeaders = { authorization: `Bearer ${apiKey}` };
  const probe = await request(`${platform.url}/v1/workspace`, { headers: workspaceHeaders });
  if (probe.status !== 200)
    throw new Error(`GET /v1/workspace answered ${probe.status}: ${probe.text.slice(0, 300)}`);

  const targets = [
    { key: 'bare', label: 'bare Fastify  GET /', child: bare, url: `${bare.url}/`, headers: {} },
    {
      key: 'workspace',
      label: 'embedded      GET /v1/workspace',
      child: platform,
      url: `${platform.url}/v1/workspace`,
      headers: workspaceHeaders,
    },
  ];
  for (const target of targets) {
    log(
      `${target.label}: warm-up ${WARMUP_S} s, then ${options.durationS} s at ${CONNECTIONS} connections ...`,
    );
    const withExit = (err) => {
      const { child } = target;
      throw new Error(
        `${err.message}${child.exitCode === undefined ? '' : ` (${child.name} exited with ${child.exitCode}${tailOf(child)})`}`,
      );
    };
    await load(`${target.label} (warm-up)`, target.url, target.headers, WARMUP_S).catch(withExit);
    const linesBefore = target.child.lines;
    const cpuBefore = await cpuSnapshot([bare.proc.pid, platform.proc.pid]);
    const windowStart = process.hrtime.bigint() / 1000n;
    target.result = await load(target.label, target.url, target.headers, options.durationS).catch(
      withExit,
    );
    target.window = [Number(windowStart), Number(process.hrtime.bigint() / 1000n)];
    const cpuAfter = await cpuSnapshot([bare.proc.pid, platform.proc.pid]);
    target.otherCpu = otherCpu(cpuBefore, cpuAfter);
    target.targetCpu = cpuOf(cpuBefore, cpuAfter, target.child.proc.pid);
    target.loaderCpu = cpuOf(cpuBefore, cpuAfter, 'self');
    target.logLines = target.child.lines - linesBefore;
    if (target.otherCpu !== undefined && target.otherCpu > BUSY_MACHINE_CPUS) {
      log(
        `  warning: other processes used ${target.otherCpu.toFixed(2)} CPU on average during this run: the figures are noisy`,
      );
    }
  }

  const platformLogLines = targets[1].logLines;
  await stopChild(bare);
  await stopChild(platform);
  if (platform.exitCode !== 0)
    log(`warning: the platform exited with ${platform.exitCode} after SIGTERM${tailOf(platform)}`);

  const report = buildReport(targets, platformLogLines);
  log('');
  log(report.table);
  log('');
  log(report.verdictLine);
  log(
    `CPU during the runs: ${targets.map((t) => `${t.key} target ${fmtCpu(t.targetCpu)}, autocannon ${fmtCpu(t.loaderCpu)}, other processes ${fmtCpu(t.otherCpu)}`).join('; ')}`,
  );
  if (platformLogLines)
    log(`note: the platform wrote ${platformLogLines} log line(s) during its measured run`);

  if (options.cpuProf) await summarizeProfile(profDir, targets[1].window, targets[1].result['2xx']);
  if (options.write && report.status === 'inconclusive') {
    log(`did not rewrite ${RESULTS_FILE}: an inconclusive run is not a result`);
  } else if (options.write) {
    const kept = await handWrittenSections();
    await writeFile(
      RESULTS_FILE,
      kept.length ? `${report.markdown}\n${kept.join('\n')}` : report.markdown,
    );
    log(
      `wrote ${RESULTS_FILE}${kept.length ? ` (kept ${kept.length} hand-written section(s))` : ''}`,
    );
  }
  await cleanup();
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit({ met: 0, 'not met': 1, inconclusive: 3 }[report.status]);
}

/** Headings of the `## ` sections that --write generates; any other section of RESULTS.md is kept. */
const GENERATED_SECTIONS = new Set(['Run', 'How to rerun']);

/** The `## ` sections of the current RESULTS.md that this script does not generate, in order. */
async function handWrittenSections() {
  let text;
  try {
    text = await readFile(RESULTS_FILE, 'utf8');
  } catch {
    return [];
  }
  const sections = [];
  let current;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^## (.+?)\s*$/.exec(line);
    if (heading) {
      current = GENERATED_SECTIONS.has(heading[1]) ? undefined : [];
      if (current) sections.push(current);
    }
    current?.push(line);
  }
  return sections.map((lines) => `${lines.join('\n').trimEnd()}\n`);
}

// ---------------------------------------------------------------- machine noise
// CPU used by everything else on the machine during a measured run: the busy time of the whole
// machine (/proc/stat) less that of this process and of the targets' process groups (the platform's
// group includes its PostgreSQL). Linux only; undefined elsewhere.
async function cpuSnapshot(groupLeaders) {
  try {
    const stat = await readFile('/proc/stat', 'utf8');
    const [user, nice, system, , , irq, softirq, steal] = stat
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const busy = user + nice + system + irq + softirq + (steal ?? 0);
    let ours = 0;
    const byGroup = Object.fromEntries(groupLeaders.map((leader) => [leader, 0]));
    let self = 0;
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const text = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
      if (!text) continue;
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const pgrp = Number(fields[2]);
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (pid === process.pid) self += ticks;
      else if (groupLeaders.includes(pgrp)) byGroup[pgrp] += ticks;
      else continue;
      ours += ticks;
    }
    return { at: process.hrtime.bigint(), busy, ours, byGroup, self };
  } catch {
    return undefined;
  }
}

/** CPUs used on average between two snapshots by the process group of `leader`, or by this process. */
function cpuOf(before, after, leader) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const ticks =
    leader === 'self' ? after.self - before.self : after.byGroup[leader] - before.byGroup[leader];
  return ticks / 100 / seconds;
}

function otherCpu(before, after) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const ticks = after.busy - before.busy - (after.ours - before.ours);
  return Math.max(0, ticks / 100 / seconds); // USER_HZ is 100 on Linux
}

// ---------------------------------------------------------------- reporting
function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    node: process.version,
    autocannon: require('autocannon/package.json').version,
    fastify: require('fastify/package.json').version,
    nestPlatformFastify: require('@nestjs/platform-fastify/package.json').version,
    commit: gitDescription(),
  };
}

/** The commit measured, and whether the work tree differed from it (read-only git calls). */
function gitDescription() {
  try {
    const git = (...args) =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'apps', 'libs') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in apps/ or libs/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function fmtCpu(value) {
  return value === undefined ? 'unknown' : `${value.toFixed(2)} CPU`;
}

function buildReport(targets, platformLogLines) {
  const m = machine();
  const [bare, workspace] = targets.map((t) => t.result);
  const ratio = workspace.requests.average / bare.requests.average;
  const meets = ratio >= TARGET_RATIO;
  // Other work on this machine skews the two runs unevenly (a starved bare run inflates the ratio),
  // so a busy run proves nothing either way.
  const noisy = targets.some((t) => t.otherCpu !== undefined && t.otherCpu > BUSY_MACHINE_CPUS);
  const pct = (value) => `${(value * 100).toFixed(1)}%`;
  const int = (value) => Math.round(value).toLocaleString('en-US');
  const ms = (value) => `${value} ms`;
  const rows = targets.map((t) => ({
    target: t.label.replace(/\s+/g, ' '),
    rps: int(t.result.requests.average),
    total: int(t.result['2xx']),
    p50: ms(t.result.latency.p50),
    p99: ms(t.result.latency.p99),
    max: ms(t.result.latency.max),
  }));
  const header = {
    target: 'target',
    rps: 'req/s (avg)',
    total: '2xx total',
    p50: 'p50',
    p99: 'p99',
    max: 'max',
  };
  const cols = Object.keys(header);
  const width = Object.fromEntries(
    cols.map((c) => [c, Math.max(header[c].length, ...rows.map((r) => r[c].length))]),
  );
  const line = (r) =>
    cols.map((c, i) => (i === 0 ? r[c].padEnd(width[c]) : r[c].padStart(width[c]))).join('  ');
  const table = [
    line(header),
    cols.map((c) => '-'.repeat(width[c])).join('  '),
    ...rows.map(line),
    '',
    `ratio workspace / bare: ${pct(ratio)} (target >= ${pct(TARGET_RATIO)})`,
  ].join('\n');
  const verdictLine = noisy
    ? `INCONCLUSIVE: ${pct(ratio)}, but other processes were busy during a run; rerun on a quiet machine`
    : meets
      ? `MEETS the target: ${pct(ratio)} >= ${pct(TARGET_RATIO)}`
      : `DOES NOT MEET the target: ${pct(ratio)} < ${pct(TARGET_RATIO)}`;
  const status = noisy ? 'inconclusive' : meets ? 'met' : 'not met';

  const date = new Date().toISOString();
  const markdown = `# Benchmark: \`GET /v1/workspace\` against bare Fastify

Acceptance: \`GET /v1/workspace\` in the embedded default sustains at least ${pct(TARGET_RATIO)} of the
bare Fastify throughput measured in the same run, at ${CONNECTIONS} connections.

**Result: ${status === 'met' ? 'met' : status === 'not met' ? 'NOT met' : 'inconclusive (the machine was busy)'}: ${pct(ratio)} of bare Fastify.**

| target | req/s (average) | 2xx answers | p50 latency | p99 latency | max latency |
|---|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.target} | ${r.rps} | ${r.total} | ${r.p50} | ${r.p99} | ${r.max} |`).join('\n')}

Ratio of average throughput, workspace / bare: **${pct(ratio)}** (target >= ${pct(TARGET_RATIO)}).
Errors, timeouts and non-2xx answers: 0 in both runs (the script fails otherwise).
CPU used during the measured runs (of ${m.cores}): ${targets.map((t) => `${t.key === 'bare' ? 'bare Fastify' : 'platform'} ${fmtCpu(t.targetCpu)} with autocannon ${fmtCpu(t.loaderCpu)}`).join('; ')}.
Other processes on the machine during the measured runs: ${targets.map((t) => (t.otherCpu === undefined ? 'unknown' : `${t.otherCpu.toFixed(2)} CPU`)).join(' (bare), ')} (workspace)${targets.some((t) => t.otherCpu > BUSY_MACHINE_CPUS) ? ' -- **noisy: rerun on a quiet machine**' : ''}.
The platform wrote ${platformLogLines} log line(s) during its measured run (LOG_LEVEL=${options.logLevel}).

## Run

- Date: ${date}
- Machine: ${m.cpu}, ${m.cores} logical CPUs, ${m.memory} RAM, ${m.os}
- Code: commit ${m.commit}
- Node ${m.node}; autocannon ${m.autocannon}; fastify ${m.fastify}; @nestjs/platform-fastify ${m.nestPlatformFastify}
- Load: autocannon in the bench process, ${CONNECTIONS} connections, pipelining ${PIPELINING}, ${WARMUP_S} s warm-up then ${options.durationS} s measured, one target at a time
- Bare Fastify: \`bench/hello-fastify.mjs\` in its own process, \`GET /\` -> \`{"hello":"world"}\`, no logger
- Embedded default: \`node dist/apps/platform/src/main.js\` in its own process (embedded PostgreSQL,
  every service on the in-process bus, gateway in front), \`LOG_LEVEL=${options.logLevel}\`, fresh data directory,
  one workspace created through \`POST /admin/v1/workspaces\`, requests authenticated with its API key;
  \`RATE_LIMITS=${READ_QUOTA}\`: the rate limiter runs and its cost counts, but with a read quota the run
  cannot spend (the default 500 a minute per organization would answer 429 within a second)
- Everything on 127.0.0.1. The load generator shares the ${m.cores} CPUs with the target, so absolute
  figures are lower than on a dedicated client; the ratio is the figure that matters.

## How to rerun

\`\`\`sh
npm run bench              # build, measure, print the table
npm run bench -- --write   # same, and rewrite this file
\`\`\`

Exit status: 0 target met, 1 not met or the run failed (errors, timeouts, non-2xx, a target
that would not start), 3 inconclusive because other processes used more than ${BUSY_MACHINE_CPUS} CPU during a
measured run (a shared machine skews the two runs unevenly; rerun when it is quiet; \`--write\`
leaves this file alone then). \`--write\` regenerates the figures, Run and How to rerun, and keeps
any other \`## \` section of this file (notes, analyses) after them.

Diagnostics, not recorded here: \`--log-level=<level>\` (platform LOG_LEVEL), \`--cpu-prof\` (profile the
platform process and print its hottest functions), \`--duration=<s>\`, \`--rate-limits=<RATE_LIMITS>\` (e.g. \`off\`).
`;
  return { table, verdictLine, markdown, status, ratio };
}

/**
 * Where the platform's CPU went during the measured GET /v1/workspace run, from its .cpuprofile:
 * busy time (idle excluded) by package, by function (self) and by function with callees, also as
 * microseconds per request. Native frames (a syscall, a hash) count for the package that called them.
 */
async function summarizeProfile(profDir, window, requests) {
  let files = [];
  try {
    files = (await readdir(profDir)).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    /* no profile directory: nothing was written */
  }
  if (!files.length) {
    log(`no .cpuprofile was written in ${profDir}`);
    return;
  }
  const profile = JSON.parse(await readFile(join(profDir, files[0]), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = ({ callFrame }) => {
    const where = callFrame.url
      ? `${callFrame.url.replace(`file://${root}/`, '')}:${callFrame.lineNumber + 1}`
      : '';
    return `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
  };
  // Sample times and process.hrtime() in this process share CLOCK_MONOTONIC (microseconds), so
  // only the samples of the measured workspace run are counted.
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = profile.startTime;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += deltas[i] ?? 0;
    if (at < window[0] || at > window[1]) continue;
    const id = profile.samples[i];
    const us = deltas[i + 1] ?? 0;
    if (byId.get(id).callFrame.functionName === '(idle)') idle += us;
    else self.set(id, (self.get(id) ?? 0) + us);
  }
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  if (!busy) {
    log(
      `the profile has no busy sample inside the measured window (profile ${profile.startTime}-${profile.endTime} us, window ${window.join('-')} us)`,
    );
    return;
  }
  const byFunction = new Map();
  const byPackage = new Map();
  const inclusive = new Map();
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  for (const [id, us] of self) {
    add(byFunction, keyOf(byId.get(id)), us);
    let owner = id;
    while (
      !byId.get(owner).callFrame.url &&
      parentOf.has(owner) &&
      byId.get(parentOf.get(owner)).callFrame.url
    )
      owner = parentOf.get(owner);
    const frame = byId.get(owner).callFrame;
    add(byPackage, packageOf(frame.url, frame.functionName), us);
    const seen = new Set();
    for (let node = id; node !== undefined; node = parentOf.get(node)) {
      const key = keyOf(byId.get(node));
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, us);
    }
  }
  inclusive.delete('(root)');
  const top = (map, n) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) =>
          `  ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${(us / requests).toFixed(1).padStart(6)} us/req  ${k}`,
      )
      .join('\n');
  log(
    `\nplatform CPU profile of the measured GET /v1/workspace run: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s,`,
  );
  log(
    `${requests} requests, so ${(busy / requests).toFixed(1)} us of platform CPU per request (percentages are of busy time)`,
  );
  log(`self time by package (native frames counted for their JS caller):\n${top(byPackage, 16)}`);
  log(`self time by function:\n${top(byFunction, 30)}`);
  log(`inclusive time by function (self + callees):\n${top(inclusive, 45)}`);
  // Keep the profile: the data directory is removed, so copy it to the temp dir root.
  const kept = join(os.tmpdir(), `switchboard-platform-${Date.now()}.cpuprofile`);
  await writeFile(kept, JSON.stringify(profile));
  log(`profile kept at ${kept} (open in Chrome DevTools > Performance)`);
}

function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0)
    return `switchboard ${url
      .slice(dist + 6)
      .split('/')
      .slice(0, 2)
      .join('/')}`;
  return url.replace('file://', '');
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
