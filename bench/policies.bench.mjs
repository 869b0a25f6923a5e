#!/usr/bin/env node
// Gateway policies, measured in one run on this machine:
//   1. rate limiter overhead: GET /v1/workspace on two embedded platforms, limits on (a read quota
//      no run can spend) and `RATE_LIMITS=off`, measured alternately;
//   2. keyset pagination: page 1 against page 400 of a 10,000-row list (GET /v1/realtime/apps).
// Usage: npm run bench:policies [-- --write]   (--write appends the figures to bench/RESULTS.md)
// Every target is a child process on 127.0.0.1; load comes from autocannon in this process.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
const children = [];
const deadline = setTimeout(() => fail('the bench ran past its 6-minute deadline'), 6 * 60_000);

function start(name, script, args, env) {
  const child = spawn(process.execPath, [script, ...args], {
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

async function stopAll() {
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
  const parent = mkdtempSync(join(tmpdir(), 'sb-bench-pg-'));
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

async function startPlatform(port, databaseUrl, rateLimits) {
  const child = start(`platform:${rateLimits}`, join(root, 'dist/apps/platform/src/main.js'), [], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    RATE_LIMITS: rateLimits,
    LOG_LEVEL: 'warn',
    PLATFORM_ADMIN_TOKEN: 'sbadm_bench',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-bench-data-')),
  });
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${base}/readyz`)).ok, `platform on ${port} ready`);
  const created = await (
    await fetch(`${base}/admin/v1/workspaces`, {
      method: 'POST',
      headers: { authorization: 'Bearer sbadm_bench', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    })
  ).json();
  return { child, base, key: created.api_key.secret, workspaceId: created.workspace.id };
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

async function measure(target, path) {
  const before = cpuMicros(target.child.pid);
  const result = await load(`${target.base}${path}`, target.key, DURATION_S);
  const cpu = cpuMicros(target.child.pid) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerRequest: cpu / result.requests.total,
  };
}

const average = (rows, field) => rows.reduce((sum, row) => sum + row[field], 0) / rows.length;

// ---------------------------------------------------------------- run
const databaseUrl = await startPostgres();
const limited = await startPlatform(
  18401,
  databaseUrl.replace(/\/switchboard$/, '/switchboard'),
  'read=1000000000,api_list=1000000000',
);
const unlimited = await startPlatform(18402, databaseUrl, 'off');

process.stdout.write('rate limiter overhead: GET /v1/workspace, limits on vs off, alternating\n');
await load(`${limited.base}/v1/workspace`, limited.key, 2);
await load(`${unlimited.base}/v1/workspace`, unlimited.key, 2);
const on = [];
const off = [];
for (let round = 0; round < ROUNDS; round++) {
  on.push(await measure(limited, '/v1/workspace'));
  off.push(await measure(unlimited, '/v1/workspace'));
}
const limiter = {
  onRps: average(on, 'rps'),
  offRps: average(off, 'rps'),
  onCpu: average(on, 'cpuPerRequest'),
  offCpu: average(off, 'cpuPerRequest'),
  onP99: Math.max(...on.map((r) => r.p99)),
  offP99: Math.max(...off.map((r) => r.p99)),
};
limiter.throughputCost = 1 - limiter.onRps / limiter.offRps;
limiter.cpuCost = limiter.onCpu / limiter.offCpu - 1;

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
  the bench process, 50 connections, ${ROUNDS} alternating rounds of ${DURATION_S} s per target after a 2 s warm-up.
  CPU per request is the target process's user + system time over the run divided by requests.

### Rate limiter overhead: \`GET /v1/workspace\`, limits on vs \`RATE_LIMITS=off\`

| limiter | req/s | p99 | CPU per request |
|---|---:|---:|---:|
| on (quota not reached) | ${f(limiter.onRps)} | ${limiter.onP99} ms | ${f(limiter.onCpu)} µs |
| off | ${f(limiter.offRps)} | ${limiter.offP99} ms | ${f(limiter.offCpu)} µs |

Throughput cost of the limiter: **${pct(limiter.throughputCost)}** (target at most 10%); CPU cost per request: ${pct(limiter.cpuCost)}.

### Keyset pagination: page 1 vs page 400 of 10,000 apps (\`limit=25\`)

| page | req/s | p50 | p99 |
|---|---:|---:|---:|
| 1 | ${f(paging.firstRps)} | ${paging.firstP50.toFixed(1)} ms | ${paging.firstP99} ms |
| 400 (\`starting_after\`) | ${f(paging.deepRps)} | ${paging.deepP50.toFixed(1)} ms | ${paging.deepP99} ms |

Page 1 throughput / page 400 throughput: **${paging.ratio.toFixed(2)}x** (target within 1.5x).
`;
process.stdout.write(report);
if (WRITE) {
  const file = join(root, 'bench', 'RESULTS.md');
  const current = readFileSync(file, 'utf8');
  const marker = '\n## Gateway policies';
  writeFileSync(
    file,
    `${current.includes(marker) ? current.slice(0, current.indexOf(marker)) : current.trimEnd() + '\n'}${report}`,
  );
  process.stdout.write('bench/RESULTS.md updated\n');
}
process.exit(0);
