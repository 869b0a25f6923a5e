#!/usr/bin/env node
// Gateway policies, measured in one run on this machine:
//   1. rate limiter overhead: GET /v1/workspace on embedded platforms with limits on (a read quota
//      no run can spend) and `RATE_LIMITS=off`, two of each. Each run loads one on and one off
//      platform at the same time (pinned to one CPU when taskset exists), so what else the machine
//      does slows both alike and their throughputs compare their costs per request; the cost is the
//      median over the runs of 1 - on/off. Runs during which other processes kept more than
//      BUSY_MACHINE_CPUS busy are left out (and counted); fewer than MIN_QUIET_PAIRS quiet runs
//      make the figure inconclusive (exit 3);
//   2. keyset pagination: page 1 against page 400 of a 10,000-row list (GET /v1/realtime/apps).
// Usage: npm run bench:policies [-- --write]   (--write appends the figures to bench/RESULTS.md)
// Exit status: 0 both targets met (limiter at most 10%, page 400 within 1.5x of page 1); 1 one
// missed or the run failed; 3 inconclusive (a busy machine), and --write then leaves RESULTS.md alone.
// Every target is a child process on 127.0.0.1; load comes from autocannon in this process.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { Client } = require('pg');
const WRITE = process.argv.includes('--write');
const DURATION_S = 6;
const ROUNDS = 2;
/**
 * Platforms per limiter setting: two processes of the same build differ by a few percent (JIT,
 * memory layout), as much as the limiter costs, so pairs rotate over two of each.
 */
const PLATFORMS_PER_SETTING = 2;
/** Limiter on/off pairs, each run LIMITER_RUN_S long, and how many quiet ones a result needs. */
const LIMITER_PAIRS = 12;
const LIMITER_WARMUP_S = 8;
const LIMITER_RUN_S = 4;
const MIN_QUIET_PAIRS = 8;
/** CPUs' worth of work by processes other than the bench and its targets that makes a pair noisy. */
const BUSY_MACHINE_CPUS = 0.25;
const children = [];
const deadline = setTimeout(() => fail('the bench ran past its 8-minute deadline'), 8 * 60_000);

/**
 * On Linux with taskset and two or more CPUs, the platforms run on the last CPU and this process
 * (autocannon) on the first: a comparison of a few percent is otherwise lost in where the
 * scheduler happens to put the target, the load generator and PostgreSQL from one run to the next
 * (measured: ±10% between two platforms of the same build). PostgreSQL is not pinned.
 */
const PIN = (() => {
  if (process.platform !== 'linux' || cpus().length < 2) return undefined;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return String(cpus().length - 1);
  } catch {
    return undefined;
  }
})();

function start(name, script, args, env, { pin = false } = {}) {
  const [command, prefix] =
    pin && PIN ? ['taskset', ['-c', PIN, process.execPath]] : [process.execPath, []];
  const child = spawn(command, [...prefix, script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  children.push(child);
  child.output = () => output;
  child.label = name;
  return child;
}

/** Temporary directories of the run, removed once its processes have stopped. */
const tempDirs = [];
function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

async function stopAll() {
  await stopChildren();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

async function stopChildren() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function fail(message) {
  process.stderr.write(`policies.bench: ${message}\n`);
  await stopAll();
  process.exit(1);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function until(check, what, timeoutMs = 90_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) return fail(`${what} did not happen within ${timeoutMs} ms`);
    await sleep(200);
  }
}

async function startPostgres() {
  const parent = tempDir('sb-bench-pg-');
  chmodSync(parent, 0o755); // the postgres user must be able to enter it when we run as root
  const child = start(
    'postgres',
    join(root, 'tools/embedded-postgres.mjs'),
    [join(parent, 'data')],
    {},
  );
  const line = await until(
    async () =>
      child
        .output()
        .split('\n')
        .find((l) => l.startsWith('{')),
    'embedded PostgreSQL start',
  );
  return JSON.parse(line).url;
}

async function startPlatform(databaseUrl, rateLimits) {
  const child = start(
    `platform:${rateLimits}`,
    join(root, 'dist/apps/standalone/src/main.js'),
    [],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      // The platform serves /metrics on a port of its own: any free one.
      METRICS_PORT: '0',
      DATABASE_URL: databaseUrl,
      RATE_LIMITS: rateLimits,
      LOG_LEVEL: 'warn',
      PLATFORM_ADMIN_TOKEN: 'sbadm_bench',
      DATA_DIR: tempDir('sb-bench-data-'),
    },
    { pin: true },
  );
  const base = await until(
    async () => /Switchboard is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output())?.[1],
    `platform (RATE_LIMITS=${rateLimits}) start`,
  );
  await until(async () => (await fetch(`${base}/readyz`)).ok, `platform at ${base} ready`);
  const created = await (
    await fetch(`${base}/admin/v1/workspaces`, {
      method: 'POST',
      headers: { authorization: 'Bearer sbadm_bench', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    })
  ).json();
  return { child, base, key: created.api_key.secret, workspaceId: created.workspace.id };
}

/**
 * CPU ticks (1/100 s) of the whole machine that were busy, and of this process and its children's
 * trees: the difference between two snapshots is what other processes did meanwhile.
 */
function machineSnapshot() {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const processes = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let text;
      try {
        text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      processes.set(Number(entry), {
        ppid: Number(fields[1]),
        // utime + stime + cutime + cstime: reaped children (PostgreSQL backends) stay counted.
        ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
      });
    }
    let ours = 0;
    for (const [pid, info] of processes) {
      for (let at = pid, hops = 0; at && hops < 64; at = processes.get(at)?.ppid, hops++) {
        if (at === process.pid) {
          ours += info.ticks;
          break;
        }
      }
    }
    return {
      at: process.hrtime.bigint(),
      busy: user + nice + system + irq + softirq + (steal ?? 0),
      ours,
    };
  } catch {
    return undefined;
  }
}

/** CPUs other processes kept busy on average between two snapshots (undefined off Linux). */
function otherCpus(before, after) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  return Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds);
}

/** CPU time (user + system) of a process in microseconds, from /proc. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / 100);
}

async function load(url, key, durationS) {
  const result = await autocannon({
    url,
    connections: 50,
    pipelining: 1,
    duration: durationS,
    headers: { authorization: `Bearer ${key}` },
  });
  if (result.errors || result.timeouts || result.non2xx)
    await fail(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return result;
}

async function measure(target, path, durationS = DURATION_S) {
  const before = cpuMicros(target.child.pid);
  const machineBefore = machineSnapshot();
  const result = await load(`${target.base}${path}`, target.key, durationS);
  const cpu = cpuMicros(target.child.pid) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: cpu / result.requests.total,
    otherCpus: otherCpus(machineBefore, machineSnapshot()),
  };
}

/** Loads the targets at the same time for `durationS`; one measurement per target. */
async function measureTogether(targets, path, durationS) {
  const before = targets.map((target) => cpuMicros(target.child.pid));
  const machineBefore = machineSnapshot();
  const results = await Promise.all(
    targets.map((target) => load(`${target.base}${path}`, target.key, durationS)),
  );
  const others = otherCpus(machineBefore, machineSnapshot());
  return results.map((result, i) => ({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: (cpuMicros(targets[i].child.pid) - before[i]) / result.requests.total,
    otherCpus: others,
  }));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const average = (rows, field) => rows.reduce((sum, row) => sum + row[field], 0) / rows.length;

// ---------------------------------------------------------------- run
const databaseUrl = await startPostgres();
const limitedPlatforms = [];
const unlimitedPlatforms = [];
for (let i = 0; i < PLATFORMS_PER_SETTING; i++) {
  limitedPlatforms.push(await startPlatform(databaseUrl, 'read=1000000000,api_list=1000000000'));
  unlimitedPlatforms.push(await startPlatform(databaseUrl, 'off'));
}
const [limited] = limitedPlatforms;

process.stdout.write(
  `rate limiter overhead: GET /v1/workspace, limits on vs off (${PLATFORMS_PER_SETTING} platforms each), ${LIMITER_PAIRS} runs of ${LIMITER_RUN_S} s loading one of each at the same time\n`,
);
// Warm-up in turns, LIMITER_WARMUP_S per platform: throughput still climbs for several seconds
// after the first requests (JIT), and a platform warmed last would look faster than the others.
for (let turn = 0; turn < LIMITER_WARMUP_S / 2; turn++)
  for (const platform of [...limitedPlatforms, ...unlimitedPlatforms])
    await load(`${platform.base}/v1/workspace`, platform.key, 2);
const pairs = [];
for (let pair = 0; pair < LIMITER_PAIRS; pair++) {
  // Every on platform meets every off platform, and the two are loaded at the same time, on the
  // same CPU when pinned: whatever else the machine does then slows both alike, and the scheduler
  // shares the CPU between them, so their throughputs compare their costs per request.
  const onPlatform = limitedPlatforms[pair % PLATFORMS_PER_SETTING];
  const offPlatform =
    unlimitedPlatforms[Math.floor(pair / PLATFORMS_PER_SETTING) % PLATFORMS_PER_SETTING];
  const [on, off] = await measureTogether(
    [onPlatform, offPlatform],
    '/v1/workspace',
    LIMITER_RUN_S,
  );
  const noisy = on.otherCpus !== undefined && on.otherCpus > BUSY_MACHINE_CPUS;
  pairs.push({ on, off, cost: 1 - on.rps / off.rps, noisy });
  process.stdout.write(
    `  pair ${pair + 1}: on ${Math.round(on.rps)} req/s, off ${Math.round(off.rps)} req/s, cost ${((1 - on.rps / off.rps) * 100).toFixed(1)}%${noisy ? ` (noisy: other processes used ${on.otherCpus.toFixed(2)} CPU; left out)` : ''}\n`,
  );
}
const quiet = pairs.filter((p) => !p.noisy);
const counted = quiet.length >= MIN_QUIET_PAIRS ? quiet : [];
const limiter = {
  pairs: pairs.length,
  counted: counted.length,
  onRps: median(counted.map((p) => p.on.rps)),
  offRps: median(counted.map((p) => p.off.rps)),
  onCpu: median(counted.map((p) => p.on.cpuPerRequest)),
  offCpu: median(counted.map((p) => p.off.cpuPerRequest)),
  onP99: Math.max(...counted.map((p) => p.on.p99)),
  offP99: Math.max(...counted.map((p) => p.off.p99)),
  throughputCost: median(counted.map((p) => p.cost)),
  costs: pairs.map((p) => `${(p.cost * 100).toFixed(1)}%${p.noisy ? ' (noisy)' : ''}`),
};
limiter.cpuCost = limiter.onCpu / limiter.offCpu - 1;
const inconclusive = counted.length === 0;

process.stdout.write('keyset pagination: 10,000 apps, page 1 vs page 400 (limit 25)\n');
const db = new Client({ connectionString: databaseUrl });
await db.connect();
await db.query(
  `INSERT INTO realtime.apps (id, workspace_id, name, region, created_at, updated_at)
   SELECT 'rap_bench' || lpad(g::text, 17, '0'), $1, 'App ' || g, 'us1', now() - g * interval '1 second', now() FROM generate_series(1, 10000) g`,
  [limited.workspaceId],
);
// As autovacuum would shortly: without statistics the planner takes the fresh 10,000 rows for a
// handful and scans them all for page 1.
await db.query('ANALYZE realtime.apps');
await db.end();
let cursor = null;
for (let page = 1; page < 400; page++) {
  const body = await (
    await fetch(
      `${limited.base}/v1/realtime/apps?limit=25${cursor ? `&starting_after=${cursor}` : ''}`,
      { headers: { authorization: `Bearer ${limited.key}` } },
    )
  ).json();
  cursor = body.next_cursor;
  if (!cursor) await fail(`the list ended at page ${page}`);
}
const page400Path = `/v1/realtime/apps?limit=25&starting_after=${cursor}`;
const check = await (
  await fetch(`${limited.base}${page400Path}`, {
    headers: { authorization: `Bearer ${limited.key}` },
  })
).json();
if (check.data.length !== 25 || check.data[0].name !== 'App 9976')
  await fail(`page 400 starts at ${check.data[0]?.name}, expected App 9976`);
await load(`${limited.base}/v1/realtime/apps?limit=25`, limited.key, 2);
const first = [];
const deep = [];
for (let round = 0; round < ROUNDS; round++) {
  first.push(await measure(limited, '/v1/realtime/apps?limit=25'));
  deep.push(await measure(limited, page400Path));
}
const paging = {
  firstRps: average(first, 'rps'),
  deepRps: average(deep, 'rps'),
  firstP50: average(first, 'p50'),
  deepP50: average(deep, 'p50'),
  firstP99: Math.max(...first.map((r) => r.p99)),
  deepP99: Math.max(...deep.map((r) => r.p99)),
};
paging.ratio = paging.firstRps / paging.deepRps;

await stopAll();
clearTimeout(deadline);

const f = (n) => Math.round(n).toLocaleString('en-US');
const pct = (n) => `${(n * 100).toFixed(1)}%`;
const report = `
## Gateway policies (\`npm run bench:policies\`)

- Date: ${new Date().toISOString()}; machine: ${cpus()[0].model}, ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}
- Each target is an embedded platform in its own process (one PostgreSQL for both); autocannon in
  the bench process, 50 connections, after a warm-up per target (limiter: ${LIMITER_WARMUP_S} s in 2 s turns; pagination: 2 s). CPU per request is the target
  process's user + system time over the run divided by requests. ${PIN ? `Platforms pinned to CPU ${PIN}, autocannon to CPU 0 (taskset); PostgreSQL not pinned.` : 'Nothing pinned (no taskset).'}

### Rate limiter overhead: \`GET /v1/workspace\`, limits on vs \`RATE_LIMITS=off\`

${PLATFORMS_PER_SETTING} platforms with the limiter on and ${PLATFORMS_PER_SETTING} with it off; ${LIMITER_PAIRS} runs of ${LIMITER_RUN_S} s, each loading one on and one off
platform at the same time${PIN ? ' (both pinned to the same CPU, which the scheduler shares between them)' : ''}, every on platform against every off one; each figure is the
median over the ${limiter.counted} pairs during which other processes kept at most ${BUSY_MACHINE_CPUS} CPU busy${limiter.counted < limiter.pairs ? ` (${limiter.pairs - limiter.counted} noisy pair(s) left out)` : ''}.

| limiter | req/s | p99 | CPU per request |
|---|---:|---:|---:|
| on (quota not reached) | ${inconclusive ? '-' : f(limiter.onRps)} | ${inconclusive ? '-' : `${limiter.onP99} ms`} | ${inconclusive ? '-' : `${f(limiter.onCpu)} µs`} |
| off | ${inconclusive ? '-' : f(limiter.offRps)} | ${inconclusive ? '-' : `${limiter.offP99} ms`} | ${inconclusive ? '-' : `${f(limiter.offCpu)} µs`} |

Throughput cost of the limiter: **${inconclusive ? `inconclusive (fewer than ${MIN_QUIET_PAIRS} quiet pairs)` : pct(limiter.throughputCost)}** (target at most 10%)${inconclusive ? '' : `; CPU cost per request: ${pct(limiter.cpuCost)}`}.
Cost of each pair: ${limiter.costs.join(', ')}.

### Keyset pagination: page 1 vs page 400 of 10,000 apps (\`limit=25\`)

| page | req/s | p50 | p99 |
|---|---:|---:|---:|
| 1 | ${f(paging.firstRps)} | ${paging.firstP50.toFixed(1)} ms | ${paging.firstP99} ms |
| 400 (\`starting_after\`) | ${f(paging.deepRps)} | ${paging.deepP50.toFixed(1)} ms | ${paging.deepP99} ms |

Page 1 throughput / page 400 throughput: **${paging.ratio.toFixed(2)}x** (target within 1.5x).
`;
process.stdout.write(report);
if (WRITE && inconclusive) {
  process.stdout.write('bench/RESULTS.md left alone: an inconclusive run is not a result\n');
} else if (WRITE) {
  const file = join(root, 'bench', 'RESULTS.md');
  const current = readFileSync(file, 'utf8');
  const marker = '\n## Gateway policies';
  writeFileSync(
    file,
    `${current.includes(marker) ? current.slice(0, current.indexOf(marker)) : current.trimEnd() + '\n'}${report}`,
  );
  process.stdout.write('bench/RESULTS.md updated\n');
}
// 0: both targets met; 1: one missed; 3: the limiter figure is inconclusive (a busy machine).
process.exit(inconclusive ? 3 : limiter.throughputCost <= 0.1 && paging.ratio <= 1.5 ? 0 : 1);
