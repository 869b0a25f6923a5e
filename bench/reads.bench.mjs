#!/usr/bin/env node
// Reads through the gateway against bare Fastify, side by side in one run:
//   1. `GET /v1/workspace` (the gateway's own data) against a bare Fastify hello-world;
//   2. the transported read `GET /v1/realtime/apps/{id}` (gateway -> transport -> realtime
//      service -> PostgreSQL) against a bare Fastify route running the same SELECT through `pg`;
//   3. the list `GET /v1/realtime/apps?limit=25` against bare Fastify + `pg` running the same
//      keyset SELECT.
// 2 and 3 are also measured, when `nats-server` is on PATH, in the distributed topology (gateway and
// realtime service as their own processes, NATS between them; targets: the read >= 50% and the
// list >= 65% of bare) and, as the ceiling of that hop, over a bare NATS request-reply between two
// Node processes (bench/bare-nats.mjs: a Fastify front, a responder running the same SELECT).
//
//   npm run bench                 build, measure, print the tables
//   npm run bench -- --write      same, and rewrite bench/RESULTS.md with the figures (not when
//                                 the run is inconclusive); its hand-written `## ` sections (any
//                                 heading but Run and How to rerun) are kept, after the figures
//
// Exit status: 0 every target met; 1 one not met, or the run failed; 3 inconclusive (other
// processes kept the machine busy during a measured run, which skews the ratios: rerun).
//
// Diagnostics (never written to RESULTS.md):
//   --only=<keys>         comma-separated comparisons to run: workspace, get, list
//   --no-distributed      skip the distributed topology
//   --log-level=<level>   LOG_LEVEL of the platform (default warn)
//   --cpu-prof            run the platform (and the distributed gateway and realtime service)
//                         under `node --cpu-prof` and print, for each of their measured runs,
//                         where their CPU went
//   --duration=<s>        measured seconds per target (default 10)
//   --rate-limits=<v>     RATE_LIMITS of the platform instead of the bench's (e.g. `off`)
//   --baseline-dist=<dir> also measure the distributed topology of another build (its own
//                         nats-server), beside this one in the same run: a before/after on a
//                         noisy machine. <dir> is a copy of that build's dist/ inside the checkout
//                         (e.g. dist.retired-before, which git ignores) so that it finds node_modules
//
// Every target runs in its own child process (group) on 127.0.0.1, all on one PostgreSQL started
// first; the load comes from autocannon in this process, one target at a time, each warmed up
// first. Any error, timeout or non-2xx answer fails the run. The whole run is bounded by a
// deadline and the children are stopped on every way out (SIGTERM, then SIGKILL of the group).
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { assertLoopback, cpuSnapshot, killGroup } from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');

const CONNECTIONS = 50;
const PIPELINING = 1;
const WARMUP_S = 2;
const DEFAULT_DURATION_S = 10;
/** Turns each target's measured time is split into. */
const ROUNDS = 4;
const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 20_000;
const REQUEST_TIMEOUT_S = 10;
/** Apps seeded in the bench workspace: more than a page, so the list has a next page. */
const SEEDED_APPS = 30;
const LIST_LIMIT = 25;
/** Connections of the realtime service's pool (its DATABASE_POOL_SIZE default), and of bare `pg`. */
const POOL_SIZE = 10;
/**
 * Platform RATE_LIMITS for the run: the groups the measured routes spend at their maximum, the
 * others at their defaults. The limiter runs and its cost counts, but no run can spend the quota.
 */
const RATE_LIMITS = 'read=1000000000,api_list=1000000000';
/** CPUs' worth of work by processes other than the bench and its targets that makes a run noisy. */
const BUSY_MACHINE_CPUS = 0.25;

// ---------------------------------------------------------------- arguments
const COMPARISON_KEYS = ['workspace', 'get', 'list'];
const options = {
  write: false,
  cpuProf: false,
  logLevel: 'warn',
  durationS: DEFAULT_DURATION_S,
  rateLimits: undefined,
  only: COMPARISON_KEYS,
  distributed: true,
  baselineDist: undefined,
};
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split(/=(.*)/s);
  if (key === '--write') options.write = true;
  else if (key === '--cpu-prof') options.cpuProf = true;
  else if (key === '--no-distributed') options.distributed = false;
  else if (key === '--log-level' && value) options.logLevel = value;
  else if (key === '--duration' && Number(value) > 0 && Number(value) <= 60)
    options.durationS = Number(value);
  else if (key === '--rate-limits' && value) options.rateLimits = value;
  else if (key === '--baseline-dist' && value) options.baselineDist = resolve(value);
  else if (
    key === '--only' &&
    value &&
    value.split(',').every((name) => COMPARISON_KEYS.includes(name))
  )
    options.only = value.split(',');
  else usage(`unknown or invalid argument ${JSON.stringify(arg)}`);
}
if (
  options.write &&
  (options.cpuProf ||
    options.logLevel !== 'warn' ||
    options.durationS !== DEFAULT_DURATION_S ||
    options.rateLimits ||
    options.baselineDist ||
    options.only !== COMPARISON_KEYS ||
    !options.distributed)
) {
  usage(
    '--write records only the standard run: drop --cpu-prof, --log-level, --duration, --rate-limits, --baseline-dist, --only and --no-distributed',
  );
}
/**
 * Whole seconds: autocannon checks its time once a second, so it would run a round of 2.5 s for
 * 3 s anyway.
 */
const ROUND_S = Math.ceil(options.durationS / ROUNDS);
function usage(message) {
  process.stderr.write(
    `reads.bench: ${message}\nusage: node bench/reads.bench.mjs [--write] [--only=workspace,get,list] [--no-distributed] [--log-level=<level>] [--cpu-prof] [--duration=<s>] [--rate-limits=<RATE_LIMITS>]\n`,
  );
  process.exit(2);
}

const natsServer = options.distributed ? findOnPath('nats-server') : undefined;

// Start-up + every measured target (warm-up + run) + stopping, with room to spare.
const DEADLINE_MS =
  2 * START_TIMEOUT_MS + 8 * (WARMUP_S + options.durationS) * 1000 + 2 * STOP_GRACE_MS + 60_000;

// ---------------------------------------------------------------- children
const children = new Set();
const everStarted = [];
let failing = false;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function log(line) {
  process.stdout.write(`${line}\n`);
}

function findOnPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** A port nothing listens on right now: the platform's chooser, from the build (npm run bench builds). */
function freePort() {
  return require(join(root, 'dist/libs/platform/src/index.js')).freePort();
}

/**
 * Starts `command <args>` (node unless told otherwise) in its own process group and resolves once
 * a line of its output matches `ready` (whose first group, if any, becomes `child.url`).
 */
function startChild(name, args, { env = {}, ready, onOutput, command = process.execPath }) {
  const proc = spawn(command, args, {
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
      if (match && !child.started) {
        child.started = true;
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
 * stopped before it installed its signal handlers dies at once and would leave children behind.
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

// Last resort on any exit path: nothing we started outlives us.
process.on('exit', () => {
  for (const child of everStarted) killGroup(child);
});

const cleanups = [];
/** Stops the clients of PostgreSQL first, then PostgreSQL. */
async function stopChildren() {
  const postgres = everStarted.filter((child) => child.isPostgres);
  await Promise.all(everStarted.filter((child) => !child.isPostgres).map(stopChild));
  await Promise.all(postgres.map(stopChild));
}

/** Stops every child, then removes the temporary files. */
async function cleanup() {
  await stopChildren();
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

async function request(url, init = {}) {
  assertLoopback(url);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, text };
}

async function waitOk(url, timeoutMs, headers = {}) {
  const until = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < until) {
    try {
      const { status, text } = await request(url, { headers });
      if (status === 200) return;
      last = `HTTP ${status} ${text.slice(0, 200)}`;
    } catch (err) {
      last = err.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (${last})`);
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
      `429 means rate limited: the gateway runs with RATE_LIMITS=${RATE_LIMITS}, check that it still reads it`,
    );
  if (result.resets) problems.push(`${result.resets} connection resets`);
  if (!result['2xx']) problems.push('no 2xx answer at all');
  if (problems.length) throw new Error(`${label}: ${problems.join(', ')}`);
  return result;
}

// ---------------------------------------------------------------- the run
async function main() {
  const started = Date.now();
  const tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-'));
  cleanups.push(() => rm(tmp, { recursive: true, force: true }));
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as `postgres`, which must be
  // able to enter it (it would otherwise keep its data elsewhere, outliving the run).
  await chmod(tmp, 0o755);
  const profDir = join(tmp, 'cpu-prof');
  const adminToken = `sbadm_bench_${Date.now().toString(36)}`;
  const encryptionKey = `sbenc_bench_${Date.now().toString(36)}_0123456789`;
  const rateLimits = options.rateLimits ?? RATE_LIMITS;
  const dist = (app) => join(root, 'dist/apps', app, 'src/main.js');
  try {
    await readFile(dist('standalone'));
  } catch {
    throw new Error(
      `${dist('standalone')} is missing: run \`node tools/build.mjs\` first (npm run bench does)`,
    );
  }

  log(
    `starting PostgreSQL and the embedded platform (LOG_LEVEL=${options.logLevel}, RATE_LIMITS=${rateLimits}${options.cpuProf ? ', --cpu-prof' : ''}) ...`,
  );
  const postgres = startChild(
    'PostgreSQL',
    [join(root, 'tools/embedded-postgres.mjs'), join(tmp, 'postgres')],
    { ready: /^\{.*"url":"([^"]+)"/ },
  );
  postgres.isPostgres = true;
  await postgres.ready;
  const databaseUrl = postgres.url;
  const common = {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    LOG_LEVEL: options.logLevel,
    PLATFORM_ADMIN_TOKEN: adminToken,
    ENCRYPTION_KEY: encryptionKey,
    RATE_LIMITS: rateLimits,
    // Processes that serve /metrics on a port of their own take any free one.
    METRICS_PORT: '0',
  };
  const platform = startChild(
    'embedded platform',
    [...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), dist('standalone')],
    {
      env: { ...common, PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(tmp, 'platform') },
      ready: /Switchboard is running at (http:\/\/127\.0\.0\.1:\d+)/,
    },
  );
  await platform.ready;
  await waitOk(`${platform.url}/readyz`, 30_000);

  // ---- seed: a workspace and its apps, through the API
  const created = await request(`${platform.url}/admin/v1/workspaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  if (created.status !== 201)
    throw new Error(
      `POST /admin/v1/workspaces answered ${created.status}: ${created.text.slice(0, 300)}`,
    );
  const workspace = JSON.parse(created.text);
  const apiKey = workspace?.api_key?.secret;
  const workspaceId = workspace?.workspace?.id;
  if (!apiKey || !workspaceId)
    throw new Error(`POST /admin/v1/workspaces returned no api_key.secret: ${created.text}`);
  const auth = { authorization: `Bearer ${apiKey}` };
  const appIds = [];
  for (let i = 1; i <= SEEDED_APPS; i++) {
    const app = await request(`${platform.url}/v1/realtime/apps`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench app ${i}`, region: 'us1' }),
    });
    if (app.status !== 201)
      throw new Error(`POST /v1/realtime/apps answered ${app.status}: ${app.text.slice(0, 300)}`);
    appIds.push(JSON.parse(app.text).app.id);
  }
  const appId = appIds[0];

  // ---- the bare baselines: one Fastify process, the same PostgreSQL and pool size
  const bare = startChild('bare Fastify', [join(root, 'bench/bare-fastify.mjs'), '0'], {
    env: {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      BENCH_WORKSPACE_ID: workspaceId,
    },
    ready: /listening at (http:\/\/127\.0\.0\.1:\d+)/,
  });
  await bare.ready;

  // ---- the distributed topology: nats-server, the realtime service and a gateway
  const wantDistributed = options.only.some((key) => key !== 'workspace');
  let distributed;
  let bareNats;
  let baseline;
  if (options.distributed && wantDistributed && !natsServer) {
    log('  distributed topology skipped: nats-server is not on PATH');
  } else if (options.distributed && wantDistributed) {
    const natsPort = await freePort();
    const nats = startChild('nats-server', await natsArgs(natsPort), {
      command: natsServer,
      ready: /Server is ready/,
    });
    await nats.ready;
    const distributedEnv = {
      ...common,
      TRANSPORT: 'nats',
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
    };
    const profiled = (name) =>
      options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, name)}`] : [];
    const realtime = startChild('realtime service', [...profiled('realtime'), dist('realtime')], {
      env: {
        ...distributedEnv,
        HTTP_PORT: String(await freePort()),
        // Its client port too: 8090 by default, which another process may hold.
        REALTIME_CLIENT_PORT: String(await freePort()),
      },
      ready: /./,
    });
    const gatewayPort = await freePort();
    const gateway = startChild('gateway', [...profiled('gateway'), dist('gateway')], {
      env: { ...distributedEnv, PORT: String(gatewayPort), HOST: '127.0.0.1' },
      ready: /./,
    });
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const exited = Promise.race([realtime.exited, gateway.exited]).then(() => {
      throw new Error(
        `the distributed topology stopped while starting${tailOf(realtime)}${tailOf(gateway)}`,
      );
    });
    await Promise.race([
      waitOk(`${gatewayUrl}/v1/realtime/apps/${appId}`, START_TIMEOUT_MS, auth),
      exited,
    ]);
    distributed = { url: gatewayUrl, children: [gateway, realtime, nats] };

    // The ceiling of the hop: a bare Fastify front and a bare responder, NATS between them.
    const bareNatsEnv = {
      NATS_URL: distributedEnv.NATS_URL,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      BENCH_WORKSPACE_ID: workspaceId,
    };
    const responder = startChild(
      'bare NATS responder',
      [join(root, 'bench/bare-nats.mjs'), 'responder'],
      { env: bareNatsEnv, ready: /bare-nats responder ready/ },
    );
    await responder.ready;
    const front = startChild('bare NATS front', [join(root, 'bench/bare-nats.mjs'), 'front', '0'], {
      env: bareNatsEnv,
      ready: /listening at (http:\/\/127\.0\.0\.1:\d+)/,
    });
    await front.ready;
    bareNats = { url: front.url, children: [front, responder, nats] };

    if (options.baselineDist) {
      // Its own nats-server: the two builds' services would share a queue group otherwise.
      const baselinePort = await freePort();
      const baselineNats = startChild('nats-server (baseline)', await natsArgs(baselinePort), {
        command: natsServer,
        ready: /Server is ready/,
      });
      await baselineNats.ready;
      const baselineEnv = { ...distributedEnv, NATS_URL: `nats://127.0.0.1:${baselinePort}` };
      const main = (app) => join(options.baselineDist, 'apps', app, 'src/main.js');
      const baselineRealtime = startChild('realtime service (baseline)', [main('realtime')], {
        env: {
          ...baselineEnv,
          HTTP_PORT: String(await freePort()),
          // Its client port too: 8090 by default, which another process may hold.
          REALTIME_CLIENT_PORT: String(await freePort()),
        },
        ready: /./,
      });
      const baselinePortHttp = await freePort();
      const baselineGateway = startChild('gateway (baseline)', [main('gateway')], {
        env: { ...baselineEnv, PORT: String(baselinePortHttp), HOST: '127.0.0.1' },
        ready: /./,
      });
      const url = `http://127.0.0.1:${baselinePortHttp}`;
      await waitOk(`${url}/v1/realtime/apps/${appId}`, START_TIMEOUT_MS, auth);
      baseline = { url, children: [baselineGateway, baselineRealtime, baselineNats] };
    }
  }
  log(
    `  up after ${((Date.now() - started) / 1000).toFixed(1)} s: platform ${platform.url}, bare ${bare.url}${distributed ? `, distributed gateway ${distributed.url}, bare NATS front ${bareNats.url}` : ''}; ${SEEDED_APPS} apps seeded`,
  );

  // ---- the comparisons
  const comparisons = [
    {
      key: 'workspace',
      title: '`GET /v1/workspace` (the gateway’s own data) against bare Fastify hello-world',
      short: 'workspace',
      targetRatio: 0.4,
      bare: { label: 'bare Fastify GET /', path: '/' },
      platform: { label: 'embedded GET /v1/workspace', path: '/v1/workspace' },
    },
    {
      key: 'get',
      title:
        'Transported read `GET /v1/realtime/apps/{id}` against bare Fastify + `pg` running the same SELECT',
      short: 'transported read',
      targetRatio: 0.6,
      distributedTargetRatio: 0.5,
      bare: { label: 'bare Fastify + pg GET /apps/{id}', path: `/apps/${appId}` },
      platform: {
        label: 'embedded GET /v1/realtime/apps/{id}',
        path: `/v1/realtime/apps/${appId}`,
      },
      distributed: { label: 'distributed (NATS) same route', path: `/v1/realtime/apps/${appId}` },
      bareNats: { label: 'bare Fastify -> NATS -> Node + pg', path: `/apps/${appId}` },
    },
    {
      key: 'list',
      title: `List \`GET /v1/realtime/apps?limit=${LIST_LIMIT}\` against bare Fastify + \`pg\` running the same keyset SELECT`,
      short: 'list',
      targetRatio: 0.6,
      distributedTargetRatio: 0.65,
      bare: {
        label: `bare Fastify + pg GET /apps?limit=${LIST_LIMIT}`,
        path: `/apps?limit=${LIST_LIMIT}`,
      },
      platform: {
        label: `embedded GET /v1/realtime/apps?limit=${LIST_LIMIT}`,
        path: `/v1/realtime/apps?limit=${LIST_LIMIT}`,
      },
      distributed: {
        label: 'distributed (NATS) same route',
        path: `/v1/realtime/apps?limit=${LIST_LIMIT}`,
      },
      bareNats: {
        label: 'bare Fastify -> NATS -> Node + pg',
        path: `/apps?limit=${LIST_LIMIT}`,
      },
    },
  ].filter((comparison) => options.only.includes(comparison.key));

  const groups = {
    bare: [bare],
    platform: [platform],
    distributed: distributed?.children ?? [],
    bareNats: bareNats?.children ?? [],
    baseline: baseline?.children ?? [],
    postgres: [postgres],
  };
  const leaders = everStarted.map((child) => child.proc.pid);
  for (const comparison of comparisons) {
    comparison.runs = [];
    const runs = [
      { kind: 'bare', base: bare.url, headers: {}, ...comparison.bare },
      { kind: 'platform', base: platform.url, headers: auth, ...comparison.platform },
    ];
    if (distributed && comparison.distributed)
      runs.push({
        kind: 'distributed',
        base: distributed.url,
        headers: auth,
        ...comparison.distributed,
      });
    if (baseline && comparison.distributed)
      runs.push({
        kind: 'baseline',
        base: baseline.url,
        headers: auth,
        ...comparison.distributed,
        label: 'distributed, baseline build',
      });
    if (bareNats && comparison.bareNats)
      runs.push({ kind: 'bareNats', base: bareNats.url, headers: {}, ...comparison.bareNats });
    const withExit = (run) => (err) => {
      const dead = groups[run.kind].filter((child) => child.exitCode !== undefined);
      throw new Error(
        `${err.message}${dead.map((child) => ` (${child.name} exited with ${child.exitCode}${tailOf(child)})`).join('')}`,
      );
    };
    for (const run of runs) {
      log(`${run.label}: warm-up ${WARMUP_S} s`);
      await load(`${run.label} (warm-up)`, `${run.base}${run.path}`, run.headers, WARMUP_S).catch(
        withExit(run),
      );
      Object.assign(run, { rounds: [], windows: [], logLines: 0 });
      run.cpu = { seconds: 0, target: 0, postgres: 0, loader: 0, other: 0 };
    }
    // The targets take turns (forward, then backward, ...): the machine's state drifts over a
    // minute, and measuring each target in one block would hand the drift to one side.
    log(
      `  measuring: ${ROUNDS} rounds of ${ROUND_S} s per target at ${CONNECTIONS} connections, taking turns`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const run of round % 2 ? [...runs].reverse() : runs) {
        const linesBefore = platform.lines;
        const before = await cpuSnapshot(leaders);
        const windowStart = process.hrtime.bigint() / 1000n;
        const result = await load(run.label, `${run.base}${run.path}`, run.headers, ROUND_S).catch(
          withExit(run),
        );
        run.windows.push([Number(windowStart), Number(process.hrtime.bigint() / 1000n)]);
        const after = await cpuSnapshot(leaders);
        run.rounds.push(result);
        run.logLines += platform.lines - linesBefore;
        if (before && after) {
          const seconds = Number(after.at - before.at) / 1e9;
          const cpuOf = (list) =>
            list.reduce(
              (sum, child) =>
                sum + (after.byGroup[child.proc.pid] - before.byGroup[child.proc.pid]) / 100,
              0,
            );
          const other = Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100);
          run.cpu.seconds += seconds;
          run.cpu.target += cpuOf(groups[run.kind]);
          run.cpu.postgres += cpuOf(groups.postgres);
          run.cpu.loader += (after.self - before.self) / 100;
          run.cpu.other += other;
          if (other / seconds > BUSY_MACHINE_CPUS)
            log(
              `  warning: other processes used ${(other / seconds).toFixed(2)} CPU on average during a round of ${run.label}: the figures are noisy`,
            );
        }
      }
    }
    for (const run of runs) {
      run.result = combine(run.rounds);
      comparison.runs.push(run);
    }
  }

  await stopChildren();
  const report = buildReport(comparisons, Boolean(distributed));
  log('');
  log(report.text);
  log('');
  for (const line of report.verdicts) log(line);
  const logLines = comparisons.flatMap((c) => c.runs).reduce((sum, run) => sum + run.logLines, 0);
  if (logLines) log(`note: the platform wrote ${logLines} log line(s) during its measured runs`);

  if (options.cpuProf) {
    for (const comparison of comparisons) {
      const run = comparison.runs.find((r) => r.kind === 'platform');
      await summarizeProfile(profDir, run.windows, run.result['2xx'], run.label);
      const dist = comparison.runs.find((r) => r.kind === 'distributed');
      for (const name of dist ? ['gateway', 'realtime'] : [])
        await summarizeProfile(
          join(profDir, name),
          dist.windows,
          dist.result['2xx'],
          `${dist.label}: ${name}`,
        );
    }
  }
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

/**
 * One autocannon-like result from a target's rounds: requests per second over all of them, p50
 * the median of the rounds' p50, p99 and max the worst of theirs. Per second of the rounds' own
 * `duration`, not the one asked for: autocannon stops on a whole second of its own clock.
 */
function combine(rounds) {
  const total = rounds.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.duration, 0);
  const p50s = rounds.map((r) => r.latency.p50).sort((a, b) => a - b);
  return {
    requests: { total, average: total / seconds },
    '2xx': rounds.reduce((sum, r) => sum + r['2xx'], 0),
    latency: {
      p50: p50s[Math.floor((p50s.length - 1) / 2)],
      p99: Math.max(...rounds.map((r) => r.latency.p99)),
      max: Math.max(...rounds.map((r) => r.latency.max)),
    },
  };
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
    pg: require('pg/package.json').version,
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

const pct = (value) => `${(value * 100).toFixed(1)}%`;
const int = (value) => Math.round(value).toLocaleString('en-US');

/** CPU per request in µs of a run's serving process(es), of PostgreSQL, of autocannon. */
function perRequest(run) {
  const requests = run.result.requests.total;
  if (!run.cpu || !requests) return undefined;
  const us = (seconds) => (seconds * 1e6) / requests;
  return {
    target: us(run.cpu.target),
    postgres: us(run.cpu.postgres),
    loader: us(run.cpu.loader),
    otherCpus: run.cpu.other / run.cpu.seconds,
  };
}

function buildReport(comparisons, withDistributed) {
  const m = machine();
  const noisy = comparisons.some((c) =>
    c.runs.some((run) => run.cpu && run.cpu.other / run.cpu.seconds > BUSY_MACHINE_CPUS),
  );
  const verdicts = [];
  const text = [];
  const markdown = [];
  let allMet = true;
  for (const c of comparisons) {
    const bare = c.runs.find((r) => r.kind === 'bare');
    const platform = c.runs.find((r) => r.kind === 'platform');
    const dist = c.runs.find((r) => r.kind === 'distributed');
    const overNats = c.runs.find((r) => r.kind === 'bareNats');
    c.ratio = platform.result.requests.average / bare.result.requests.average;
    c.met = c.ratio >= c.targetRatio;
    allMet &&= c.met;
    if (dist) {
      c.distRatio = dist.result.requests.average / bare.result.requests.average;
      c.distMet = c.distRatio >= c.distributedTargetRatio;
      allMet &&= c.distMet;
    }
    const rows = c.runs.map((run) => {
      const cpu = perRequest(run);
      const fmt = (value) => (value === undefined ? '?' : `${value.toFixed(0)} µs`);
      return {
        target: run.label,
        rps: int(run.result.requests.average),
        ratio: pct(run.result.requests.average / bare.result.requests.average),
        p50: `${run.result.latency.p50} ms`,
        p99: `${run.result.latency.p99} ms`,
        cpu: fmt(cpu?.target),
        pg: fmt(cpu?.postgres),
        other: cpu ? `${cpu.otherCpus.toFixed(2)}` : '?',
      };
    });
    const header = {
      target: 'target',
      rps: 'req/s',
      ratio: 'of bare',
      p50: 'p50',
      p99: 'p99',
      cpu: 'CPU/req',
      pg: 'PG CPU/req',
      other: 'other CPUs',
    };
    const cols = Object.keys(header);
    const width = Object.fromEntries(
      cols.map((col) => [col, Math.max(header[col].length, ...rows.map((r) => r[col].length))]),
    );
    const line = (r) =>
      cols
        .map((col, i) => (i === 0 ? r[col].padEnd(width[col]) : r[col].padStart(width[col])))
        .join('  ');
    text.push(
      `${c.title.replace(/`/g, '')}`,
      line(header),
      cols.map((col) => '-'.repeat(width[col])).join('  '),
      ...rows.map(line),
      `ratio ${c.short} / bare: ${pct(c.ratio)} (target >= ${pct(c.targetRatio)})`,
      ...(dist
        ? [
            `ratio distributed ${c.short} / bare: ${pct(c.distRatio)} (target >= ${pct(c.distributedTargetRatio)})`,
          ]
        : []),
    );
    let hop = '';
    if (dist) {
      const d = perRequest(dist);
      const p = perRequest(platform);
      hop = `Distributed mode (gateway and realtime service as their own processes, NATS between them): ${int(dist.result.requests.average)} req/s, ${pct(dist.result.requests.average / platform.result.requests.average)} of the embedded default and ${pct(dist.result.requests.average / bare.result.requests.average)} of bare; p50 ${dist.result.latency.p50} ms against ${platform.result.latency.p50} ms${d && p ? `; the NATS hop costs ${(d.target - p.target).toFixed(0)} µs of CPU per request more (gateway + service + nats-server ${d.target.toFixed(0)} µs against ${p.target.toFixed(0)} µs in one process)` : ''}.`;
      if (overNats) {
        const n = perRequest(overNats);
        hop += ` The bare NATS request-reply between two Node processes (the ceiling of the hop: Fastify front, NATS, responder + \`pg\`) answers ${int(overNats.result.requests.average)} req/s, ${pct(overNats.result.requests.average / bare.result.requests.average)} of bare${n ? ` at ${n.target.toFixed(0)} µs of CPU per request (front + responder + nats-server)` : ''}; the distributed route reaches ${pct(dist.result.requests.average / overNats.result.requests.average)} of it.`;
      }
      text.push(hop);
    }
    text.push('');
    const verdict = (name, ratio, met, target) =>
      noisy
        ? `INCONCLUSIVE ${name}: ${pct(ratio)}, but other processes were busy during a run`
        : `${met ? 'MEETS' : 'DOES NOT MEET'} ${name}: ${pct(ratio)} ${met ? '>=' : '<'} ${pct(target)}`;
    verdicts.push(verdict(c.short, c.ratio, c.met, c.targetRatio));
    if (dist)
      verdicts.push(
        verdict(`distributed ${c.short}`, c.distRatio, c.distMet, c.distributedTargetRatio),
      );
    markdown.push(
      `### ${c.title}`,
      '',
      `Target: at least ${pct(c.targetRatio)} of bare. **${noisy ? 'Inconclusive' : c.met ? 'Met' : 'NOT met'}: ${pct(c.ratio)}.**${dist ? ` Distributed: at least ${pct(c.distributedTargetRatio)} of bare. **${noisy ? 'Inconclusive' : c.distMet ? 'Met' : 'NOT met'}: ${pct(c.distRatio)}.**` : ''}`,
      '',
      '| target | req/s | of bare | p50 | p99 | CPU per request | PostgreSQL CPU per request | other processes (CPUs) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.target} | ${r.rps} | ${r.ratio} | ${r.p50} | ${r.p99} | ${r.cpu} | ${r.pg} | ${r.other} |`,
      ),
      '',
      ...(hop ? [hop, ''] : []),
    );
  }
  const status = noisy ? 'inconclusive' : allMet ? 'met' : 'not met';
  const date = new Date().toISOString();
  const document = `# Benchmark: reads through the gateway against bare Fastify

One run, ${CONNECTIONS} connections, the targets of a comparison taking turns in ${ROUNDS} rounds. **Result: ${status === 'met' ? 'every target met' : status === 'not met' ? 'NOT every target met' : 'inconclusive (the machine was busy)'}.**
CPU per request is the serving process's user + system time over the measured run divided by
the requests it answered (distributed: gateway + realtime service + nats-server); PostgreSQL's
is separate. Errors, timeouts and non-2xx answers: 0 in every run (the script fails otherwise).

${markdown.join('\n')}
## Run

- Date: ${date}
- Machine: ${m.cpu}, ${m.cores} logical CPUs, ${m.memory} RAM, ${m.os}
- Code: commit ${m.commit}
- Node ${m.node}; autocannon ${m.autocannon}; fastify ${m.fastify}; pg ${m.pg}; @nestjs/platform-fastify ${m.nestPlatformFastify}
- Load: autocannon in the bench process, ${CONNECTIONS} connections, pipelining ${PIPELINING}; per comparison each target is
  warmed up ${WARMUP_S} s, then measured in ${ROUNDS} rounds of ${ROUND_S} s, the targets taking turns (forward, backward, ...);
  req/s over all rounds, p50 the median of the rounds', p99 the worst
- PostgreSQL: one embedded PostgreSQL (\`tools/embedded-postgres.mjs\`) for every target, fresh data directory
- Bare Fastify: \`bench/bare-fastify.mjs\` in its own process, no logger: \`GET /\` -> \`{"hello":"world"}\`;
  \`GET /apps/{id}\` and \`GET /apps?limit=${LIST_LIMIT}\` run the realtime service's SELECTs through a \`pg\` Pool
  of ${POOL_SIZE} connections and answer the same JSON (the list with an HMAC-signed cursor); no authentication
- Embedded default: \`node dist/apps/standalone/src/main.js\` in its own process (every service on the
  in-process bus, gateway in front; pools of ${POOL_SIZE}), \`LOG_LEVEL=${options.logLevel}\`; one workspace created through
  \`POST /admin/v1/workspaces\` and ${SEEDED_APPS} apps through \`POST /v1/realtime/apps\`, requests authenticated
  with its API key; \`RATE_LIMITS=${RATE_LIMITS}\`: the limiter runs and its cost counts, with quotas no run can spend
- Distributed: ${withDistributed ? '`dist/apps/gateway` and `dist/apps/realtime` as their own processes, `nats-server` between them, same PostgreSQL and settings' : 'not measured (nats-server not on PATH)'}
- Bare NATS: ${withDistributed ? '`bench/bare-nats.mjs`, a Fastify front (no logger) making one NATS request per HTTP request (`@nats-io/transport-node` `request`, JSON both ways, no headers) to a responder process running the same SELECTs as bare Fastify (`bench/bare-apps.mjs`), on the same `nats-server`; CPU per request counts front, responder and nats-server' : 'not measured (nats-server not on PATH)'}
- Everything on 127.0.0.1. The load generator shares the ${m.cores} CPUs with the targets, so absolute
  figures are lower than on a dedicated client; the ratios are the figures that matter.

## How to rerun

\`\`\`sh
npm run bench              # build, measure, print the tables
npm run bench -- --write   # same, and rewrite this file
\`\`\`

Exit status: 0 every target met, 1 one not met or the run failed (errors, timeouts, non-2xx, a
target that would not start), 3 inconclusive because other processes used more than ${BUSY_MACHINE_CPUS} CPU during
a measured run (a shared machine skews the runs unevenly; rerun when it is quiet; \`--write\`
leaves this file alone then). \`--write\` regenerates the figures, Run and How to rerun, and keeps
any other \`## \` section of this file (notes, analyses) after them.

Diagnostics, not recorded here: \`--only=workspace,get,list\`, \`--no-distributed\`, \`--cpu-prof\`
(profile the platform and print where its CPU went in each measured run), \`--log-level=<level>\`,
\`--duration=<s>\`, \`--rate-limits=<RATE_LIMITS>\` (e.g. \`off\`), \`--baseline-dist=<dir>\` (another build's
distributed topology measured in the same run, for a before/after).
`;
  return { text: text.join('\n'), verdicts, markdown: document, status };
}

/**
 * Where the platform's CPU went during one measured run, from its .cpuprofile: busy time (idle
 * excluded) by package, by function (self) and by function with callees, also as microseconds per
 * request. Native frames (a syscall, a hash) count for the package that called them.
 */
async function summarizeProfile(profDir, windows, requests, label) {
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
  // only the samples of the measured rounds are counted.
  const self = new Map();
  const deltas = profile.timeDeltas;
  let at = profile.startTime;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += deltas[i] ?? 0;
    if (!windows.some(([from, to]) => at >= from && at <= to)) continue;
    const id = profile.samples[i];
    const us = deltas[i + 1] ?? 0;
    if (byId.get(id).callFrame.functionName === '(idle)') idle += us;
    else self.set(id, (self.get(id) ?? 0) + us);
  }
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  if (!busy) {
    log(`the profile has no busy sample inside the measured window of ${label}`);
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
    `\nplatform CPU profile of the measured ${label} run: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s,`,
  );
  log(
    `${requests} requests, so ${(busy / requests).toFixed(1)} us of platform CPU per request (percentages are of busy time)`,
  );
  log(`self time by package (native frames counted for their JS caller):\n${top(byPackage, 16)}`);
  log(`self time by function:\n${top(byFunction, 30)}`);
  log(`inclusive time by function (self + callees):\n${top(inclusive, 60)}`);
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

/** nats-server's arguments: its max_payload as the platform needs it (they refuse 1 MB at start). */
async function natsArgs(port) {
  const configFile = join(await mkdtemp(join(os.tmpdir(), 'bench-nats-')), 'nats.conf');
  const { NATS_MAX_PAYLOAD_CONFIG } = require(join(root, 'dist/libs/platform/src/index.js'));
  await writeFile(configFile, NATS_MAX_PAYLOAD_CONFIG);
  return ['-c', configFile, '-a', '127.0.0.1', '-p', String(port)];
}
