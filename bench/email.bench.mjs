#!/usr/bin/env node
// Email sending on the embedded default, measured in one run on this machine:
//   1. accepted sends: `POST /v1/email/messages` at 64 connections against a bare Fastify + `pg`
//      route (bench/bare-email.mjs) writing the same rows in one transaction with the email
//      service's own code (draftMessage + insertDrafts from dist/), the two taking turns in rounds;
//      A control runs the same send scheduled 29 days ahead on both sides: the same accept path
//      with no delivery work in the background (see below);
//   2. batches: `POST /v1/email/batches` with 100 messages at 8 connections, the same way against
//      the bare route writing the same 100 messages in one transaction;
//   3. delivery: N messages (default 3,000) sent through the API in batches, delivered through
//      SMTP_RELAY_URL into a local SMTP sink (bench/smtp-sink.mjs, its own process): messages per
//      second from the first accept to the last message the sink received; and the sink's own
//      capacity, fed by nodemailer from this process before the platform starts.
// Delivery (3) runs first, on an empty queue. The bare route writes into the platform's database,
// so the platform's delivery workers process (and deliver) the bare side's messages exactly like
// its own: during 1 and 2 both sides carry the same background work, in whichever round it runs.
//
//   npm run bench:email                 build, measure, print the figures and MEETS / MISSES
//   npm run bench:email -- --write      same, and (re)write the `## Email sending` section of
//                                       bench/RESULTS.md (every other section is kept)
//
// Exit status: 0 every goal met (the moonshot is information); 1 a goal missed, or the run failed;
// 3 inconclusive: other processes kept more than BUSY_MACHINE_CPUS busy during a measured run
// (the section is still written with --write, marked inconclusive).
//
// After the side-by-side sends, the platform alone is offered the goal's 1,000 sends/s open-loop
// (autocannon's overallRate) on the same 64 connections: the latency at that rate (information).
//
// Diagnostics (not for --write): --only=<delivery,scheduled,sends,batches>, --bare-only (no platform runs,
// no delivery: develops the bare side), --duration=<s> (measured seconds per target, default 10),
// --messages=<n> (delivery, default 3000), --log-level=<level> (platform, default warn),
// --sample-queries (print what PostgreSQL's backends were busy with during the delivery run),
// --latency-trace=<file> (write every answer of the measured runs: when, how long, nth on its connection).
// BENCH_PLATFORM_NODE_ARGS (environment): extra node arguments for the platform process, e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof" (NODE_OPTIONS may not carry --cpu-prof).
//
// Every target is a child process (group) on 127.0.0.1, all on one throw-away PostgreSQL; the load
// comes from autocannon in this process. Any error, timeout or non-2xx answer fails the run. The
// run is bounded by a deadline, and every child is stopped and every temporary directory removed
// on every way out (Ctrl-C included).
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { assertLoopback, cpuSnapshot, killGroup, percentile } from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const SECTION_HEADING = '## Email sending (`npm run bench:email`)';

const SEND_CONNECTIONS = 64;
const BATCH_CONNECTIONS = 8;
const BATCH_SIZE = 100;
const WARMUP_S = 2;
const DEFAULT_DURATION_S = 10;
const DEFAULT_DELIVERY_MESSAGES = 3000;
/** Messages delivered before the measured delivery run (JIT, SMTP connections). */
const DELIVERY_WARMUP_MESSAGES = 300;
/** Batch requests in flight while the delivery run's messages are sent. */
const DELIVERY_SEND_CONCURRENCY = 2;
/** Turns each target's measured time is split into. */
const ROUNDS = 4;
const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 20_000;
const REQUEST_TIMEOUT_S = 10;
/** Connections of the email service's pool (its DATABASE_POOL_SIZE default), and of bare `pg`. */
const POOL_SIZE = 10;
/** The limiter runs and its cost counts, with quotas no run can spend. */
const RATE_LIMITS =
  'email_send=1000000000,email_batch=1000000000,read=1000000000,api_list=1000000000';
/** CPUs' worth of work by processes other than the bench and its children that makes a run noisy. */
const BUSY_MACHINE_CPUS = 0.25;
/** Connections nodemailer opens to the sink when measuring it alone: the platform's per-destination default. */
const SINK_ALONE_CONNECTIONS = 8;
const SENDING_DOMAIN = 'mail.bench.test';
/** How far ahead the control's sends are scheduled: beyond the run, within the 30-day limit. */
const SCHEDULE_AHEAD_DAYS = 29;

const GOALS = {
  ratio: 0.6,
  acceptedPerSecond: 1000,
  p99Ms: 100,
  moonshotPerSecond: 2500,
  deliveredPerSecond: 300,
};
/** Postal's reported delivery rate, which the delivery goal triples. */
const POSTAL_PER_SECOND = 105;

// ---------------------------------------------------------------- arguments
const PHASES = ['delivery', 'scheduled', 'sends', 'batches'];
const options = {
  write: false,
  bareOnly: false,
  logLevel: 'warn',
  durationS: DEFAULT_DURATION_S,
  messages: DEFAULT_DELIVERY_MESSAGES,
  only: PHASES,
};
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split(/=(.*)/s);
  if (key === '--write') options.write = true;
  else if (key === '--bare-only') options.bareOnly = true;
  else if (key === '--sample-queries') options.sampleQueries = true;
  else if (key === '--log-level' && value) options.logLevel = value;
  else if (key === '--latency-trace' && value) options.latencyTrace = value;
  else if (key === '--duration' && Number(value) > 0 && Number(value) <= 120)
    options.durationS = Number(value);
  else if (
    key === '--messages' &&
    Number.isInteger(Number(value)) &&
    Number(value) >= BATCH_SIZE &&
    Number(value) <= 100_000
  )
    options.messages = Number(value);
  else if (key === '--only' && value && value.split(',').every((name) => PHASES.includes(name)))
    options.only = value.split(',');
  else usage(`unknown or invalid argument ${JSON.stringify(arg)}`);
}
if (options.bareOnly) options.only = options.only.filter((phase) => phase !== 'delivery');
if (
  options.write &&
  (options.bareOnly ||
    options.sampleQueries ||
    options.latencyTrace ||
    options.logLevel !== 'warn' ||
    options.durationS !== DEFAULT_DURATION_S ||
    options.messages !== DEFAULT_DELIVERY_MESSAGES ||
    options.only !== PHASES)
) {
  usage(
    '--write records only the standard run: drop --only, --bare-only, --sample-queries, --latency-trace, --duration, --messages and --log-level',
  );
}
/**
 * Whole seconds: autocannon checks its time once a second, so it would run a round of 2.5 s for
 * 3 s anyway.
 */
const ROUND_S = Math.ceil(options.durationS / ROUNDS);
function usage(message) {
  process.stderr.write(
    `email.bench: ${message}\nusage: node bench/email.bench.mjs [--write] [--only=delivery,scheduled,sends,batches] [--bare-only] [--sample-queries] [--latency-trace=<file>] [--duration=<s>] [--messages=<n>] [--log-level=<level>]\n`,
  );
  process.exit(2);
}

const DELIVERY_TIMEOUT_MS = 60_000 + options.messages * 20;
const DEADLINE_MS =
  2 * START_TIMEOUT_MS +
  (options.only.includes('delivery') ? 2 * DELIVERY_TIMEOUT_MS + 30_000 : 0) +
  2 * 2 * (WARMUP_S + options.durationS + 2 * ROUNDS) * 1000 +
  2 * STOP_GRACE_MS +
  60_000;

// ---------------------------------------------------------------- children
const children = new Set();
const everStarted = [];
let failing = false;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function log(line) {
  process.stdout.write(`${line}\n`);
}

/**
 * Starts `node <args>` in its own process group and resolves once a line of its output matches
 * `ready` (whose groups become `child.match`).
 */
function startChild(name, args, { env = {}, ready }) {
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const child = { name, proc, tail: [], lines: 0, exitCode: undefined, match: undefined };
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
        if (child.tail.length > 40) child.tail.shift();
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
      if (match && !child.match) {
        child.match = match;
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

function tailOf(child, lines = 40) {
  return child.tail.length
    ? `; its last output:\n    ${child.tail.slice(-lines).join('\n    ')}`
    : '';
}

/** SIGTERM, wait for a clean exit, then SIGKILL whatever is left of its process group. */
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
/** `--latency-trace`: every answer, `<run started> <answered at> <latency ms> <nth on its connection> <run>` (ms). */
const latencyTrace = [];
/** Stops the clients of PostgreSQL first, then PostgreSQL. */
async function stopChildren() {
  const postgres = everStarted.filter((child) => child.isPostgres);
  await Promise.all(everStarted.filter((child) => !child.isPostgres).map(stopChild));
  await Promise.all(postgres.map(stopChild));
}

/** Stops every child, then runs the cleanups (database client, DNS server, temporary files). */
async function cleanup() {
  for (const fn of cleanups.filter((c) => c.early)) {
    cleanups.splice(cleanups.indexOf(fn), 1);
    await fn().catch(() => {});
  }
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
  () => void fail(`the run took longer than its ${Math.round(DEADLINE_MS / 1000)} s deadline`),
  DEADLINE_MS,
).unref();

// ---------------------------------------------------------------- HTTP helpers

async function request(url, { method = 'GET', token, body } = {}) {
  assertLoopback(url);
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, text, json };
}

async function waitOk(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < until) {
    try {
      const { status, text } = await request(url);
      if (status === 200) return;
      last = `HTTP ${status} ${text.slice(0, 200)}`;
    } catch (err) {
      last = err.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (${last})`);
}

/**
 * One autocannon run; fails the bench on any error, timeout or non-2xx answer. autocannon opens
 * its connections as a run starts and times each connection's first request from before the
 * connect; the bench warms connections up, then opens new ones every round (of 3 s, where 64
 * first requests are about 1% of a round: the p99). So `latency` covers the requests on open
 * connections, and the first requests are kept apart (`firstRequests`, and `latencyAll`: the
 * p99 over every request). Throughput counts every answer.
 */
async function load(label, target, durationS) {
  assertLoopback(target.url);
  const running = autocannon({
    ...(target.overallRate ? { overallRate: target.overallRate } : {}),
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    connections: target.connections,
    pipelining: 1,
    duration: durationS,
    timeout: REQUEST_TIMEOUT_S,
  });
  const startedAt = Date.now();
  const firstRequests = [];
  const onOpenConnections = [];
  const answered = new Map();
  running.on('response', (client, _status, _bytes, ms) => {
    const nth = (answered.get(client) ?? 0) + 1;
    answered.set(client, nth);
    (nth === 1 ? firstRequests : onOpenConnections).push(ms);
    if (options.latencyTrace)
      latencyTrace.push(`${startedAt} ${Date.now()} ${ms.toFixed(1)} ${nth} ${label}`);
  });
  const result = await running;
  const problems = [];
  if (result.errors) problems.push(`${result.errors} errors`);
  if (result.timeouts) problems.push(`${result.timeouts} timeouts`);
  if (result.non2xx)
    problems.push(`${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)})`);
  if (result.statusCodeStats?.['429'])
    problems.push(`429 means rate limited: the platform runs with RATE_LIMITS=${RATE_LIMITS}`);
  if (result.resets) problems.push(`${result.resets} connection resets`);
  if (!result['2xx']) problems.push('no 2xx answer at all');
  if (problems.length) throw new Error(`${label}: ${problems.join(', ')}`);
  result.firstRequests = firstRequests;
  result.latencyAll = { p99: Math.round(percentile([...firstRequests, ...onOpenConnections], 99)) };
  result.latency = {
    p50: Math.round(percentile(onOpenConnections, 50)),
    p99: Math.round(percentile(onOpenConnections, 99)),
    max: Math.round(Math.max(...onOpenConnections)),
  };
  return result;
}

// ---------------------------------------------------------------- what is sent
/** A small, realistic transactional send: one recipient, a subject, HTML and text, a tag. */
function sendBody(n) {
  return {
    from: { email: `hello@${SENDING_DOMAIN}`, name: 'Bench Shop' },
    to: [`customer${n}@example.com`],
    subject: `Your order #${100000 + n} has shipped`,
    html:
      '<!doctype html><html><body style="font-family:sans-serif">' +
      `<h1>Good news!</h1><p>Your order <strong>#${100000 + n}</strong> is on its way and should ` +
      'arrive within 3 working days.</p><p>Track it any time from your account page. If anything ' +
      'looks wrong, just reply to this email and our team will help.</p>' +
      '<table><tr><td>1 x Ceramic mug</td><td>12.00 EUR</td></tr><tr><td>Shipping</td>' +
      '<td>4.50 EUR</td></tr></table><p>Thanks for shopping with us,<br>The Bench Shop team</p>' +
      '</body></html>',
    text:
      `Good news! Your order #${100000 + n} is on its way and should arrive within 3 working ` +
      'days.\n\nTrack it any time from your account page. If anything looks wrong, just reply ' +
      'to this email.\n\n1 x Ceramic mug 12.00 EUR\nShipping 4.50 EUR\n\nThe Bench Shop team\n',
    category: 'transactional',
    tags: [{ name: 'flow', value: 'order_shipped' }],
  };
}

function batchBody(size, offset = 0) {
  return { messages: Array.from({ length: size }, (_, i) => sendBody(offset + i)) };
}

// ---------------------------------------------------------------- the run
async function main() {
  const started = Date.now();
  const tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-email-'));
  cleanups.push(() => rm(tmp, { recursive: true, force: true }));
  // As root the embedded PostgreSQL runs as `postgres`, which must be able to enter it.
  await chmod(tmp, 0o755);
  const adminToken = `sbadm_bench_${Date.now().toString(36)}`;
  const encryptionKey = `sbenc_bench_${Date.now().toString(36)}_0123456789`;
  const platformMain = join(root, 'dist/apps/standalone/src/main.js');
  try {
    await readFile(platformMain);
  } catch {
    throw new Error(
      `${platformMain} is missing: run \`node tools/build.mjs\` first (npm run bench:email does)`,
    );
  }
  const { startDnsServer } = require(join(root, 'dist/libs/testing/src/index.js'));
  const pg = require('pg');

  // ---- the SMTP sink, and its capacity alone (before anything else runs)
  const sink = startChild('SMTP sink', [join(root, 'bench/smtp-sink.mjs')], {
    ready: /listening at smtp:\/\/127\.0\.0\.1:(\d+) stats at (http:\/\/127\.0\.0\.1:\d+)/,
  });
  await sink.ready;
  const sinkPort = Number(sink.match[1]);
  const sinkStatsUrl = sink.match[2];
  const sinkStats = async () => (await request(`${sinkStatsUrl}/stats`)).json;
  const sinkReset = () => request(`${sinkStatsUrl}/reset`, { method: 'POST' });
  const measurements = { started: new Date().toISOString() };
  if (options.only.includes('delivery')) {
    log(
      `SMTP sink alone: ${options.messages} messages from nodemailer (${SINK_ALONE_CONNECTIONS} pooled connections) ...`,
    );
    measurements.sinkAlone = await sinkAlone(sinkPort, sinkStats, sinkReset);
    log(
      `  ${int(measurements.sinkAlone.perSecond)} messages/s (${measurements.sinkAlone.messages} in ${(measurements.sinkAlone.ms / 1000).toFixed(2)} s)`,
    );
  }

  // ---- PostgreSQL, a DNS server for the domain's verification, the platform
  log(`starting PostgreSQL and the embedded platform (RATE_LIMITS=${RATE_LIMITS}) ...`);
  const postgres = startChild(
    'PostgreSQL',
    [join(root, 'tools/embedded-postgres.mjs'), join(tmp, 'postgres')],
    { ready: /^\{.*"url":"([^"]+)"/ },
  );
  postgres.isPostgres = true;
  await postgres.ready;
  const databaseUrl = postgres.match[1];
  const dns = await startDnsServer();
  cleanups.push(() => dns.stop());
  const platform = startChild(
    'embedded platform',
    [...(process.env.BENCH_PLATFORM_NODE_ARGS?.split(' ') ?? []), platformMain],
    {
      env: {
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        LOG_LEVEL: options.logLevel,
        PLATFORM_ADMIN_TOKEN: adminToken,
        ENCRYPTION_KEY: encryptionKey,
        RATE_LIMITS,
        METRICS_PORT: '0',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(tmp, 'platform'),
        SMTP_RELAY_URL: `smtp://127.0.0.1:${sinkPort}`,
        DNS_SERVERS: dns.address,
      },
      ready: /Switchboard is running at (http:\/\/127\.0\.0\.1:\d+)/,
    },
  );
  await platform.ready;
  const base = platform.match[1];
  await waitOk(`${base}/readyz`, 30_000);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const closeDb = async () => db.end();
  closeDb.early = true;
  cleanups.push(closeDb);

  // ---- a workspace and a verified sending domain, through the API
  const created = await request(`${base}/admin/v1/workspaces`, {
    method: 'POST',
    token: adminToken,
    body: { name: 'Bench' },
  });
  const apiKey = created.json?.api_key?.secret;
  const workspaceId = created.json?.workspace?.id;
  if (created.status !== 201 || !apiKey || !workspaceId)
    throw new Error(
      `POST /admin/v1/workspaces answered ${created.status}: ${created.text.slice(0, 300)}`,
    );
  const registered = await request(`${base}/v1/email/domains`, {
    method: 'POST',
    token: apiKey,
    body: { domain: SENDING_DOMAIN },
  });
  const domain = registered.json?.dns_records ? registered.json : registered.json?.domain;
  if (registered.status !== 201 || !domain?.dns_records)
    throw new Error(
      `POST /v1/email/domains answered ${registered.status}: ${registered.text.slice(0, 300)}${tailOf(platform, 15)}`,
    );
  for (const record of domain.dns_records)
    dns.set(record.host, [
      record.type === 'CNAME'
        ? { type: 'CNAME', domain: record.value }
        : { type: 'TXT', data: record.value },
    ]);
  const verified = await request(`${base}/v1/email/domains/${domain.id}/verify`, {
    method: 'POST',
    token: apiKey,
  });
  const verifiedDomain = verified.json?.status ? verified.json : verified.json?.domain;
  if (verified.status !== 200 || verifiedDomain?.status !== 'verified')
    throw new Error(
      `POST /v1/email/domains/{id}/verify answered ${verified.status}: ${verified.text.slice(0, 500)}`,
    );

  // ---- the bare baseline, on the same database
  const bare = startChild('bare Fastify + pg', [join(root, 'bench/bare-email.mjs'), '0'], {
    env: {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      BENCH_WORKSPACE_ID: workspaceId,
    },
    ready: /listening at (http:\/\/127\.0\.0\.1:\d+)/,
  });
  await bare.ready;
  const bareBase = bare.match[1];
  const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const json = { 'content-type': 'application/json' };

  // ---- one send each way first: a platform that does not accept is reported as it answered
  const bareCheck = await request(`${bareBase}/messages`, { method: 'POST', body: sendBody(0) });
  if (bareCheck.status !== 202)
    throw new Error(
      `bare POST /messages answered ${bareCheck.status}: ${bareCheck.text.slice(0, 500)}${tailOf(bare)}`,
    );
  if (!options.bareOnly) {
    for (const [path, body] of [
      ['/v1/email/messages', sendBody(0)],
      ['/v1/email/batches', batchBody(2)],
    ]) {
      const check = await request(`${base}${path}`, { method: 'POST', token: apiKey, body });
      if (check.status !== 202)
        throw new Error(
          `the platform does not accept sends yet: POST ${path} answered ${check.status}: ${check.text.slice(0, 800)}${tailOf(platform)}`,
        );
    }
  }
  log(
    `  up after ${((Date.now() - started) / 1000).toFixed(1)} s: platform ${base}, bare ${bareBase}, sink smtp://127.0.0.1:${sinkPort}; workspace ${workspaceId}, ${SENDING_DOMAIN} verified`,
  );

  const leaders = () => everStarted.map((child) => child.proc.pid);
  const groups = { bare: [bare], platform: [platform], postgres: [postgres], sink: [sink] };

  // ---- 3. delivery first, on an empty queue
  if (options.only.includes('delivery')) {
    measurements.delivery = await deliveryRun({
      base,
      apiKey,
      db,
      sinkStats,
      sinkReset,
      platform,
      leaders,
      groups,
    });
  }

  // ---- 1. and 2. side by side, in rounds
  // The control: the same send scheduled weeks ahead writes the same kind of rows (the one event is
  // `email.scheduled` instead of `email.accepted`, the job is due later), and nothing is processed
  // or delivered meanwhile, so the two sides compare their accept paths alone.
  const scheduledAt = new Date(Date.now() + SCHEDULE_AHEAD_DAYS * 86_400_000).toISOString();
  const scheduledBody = JSON.stringify({ ...sendBody(1), scheduled_at: scheduledAt });
  const comparisons = [
    {
      key: 'scheduled',
      title: `Control: the same send scheduled ${SCHEDULE_AHEAD_DAYS} days ahead (accept path alone: nothing is processed or delivered meanwhile)`,
      connections: SEND_CONNECTIONS,
      messagesPerRequest: 1,
      bare: {
        label: 'bare Fastify + pg POST /messages',
        url: `${bareBase}/messages`,
        headers: json,
        body: scheduledBody,
      },
      platform: {
        label: 'embedded POST /v1/email/messages',
        url: `${base}/v1/email/messages`,
        headers: auth,
        body: scheduledBody,
      },
    },
    {
      key: 'sends',
      title:
        'Accepted sends: `POST /v1/email/messages` against bare Fastify + `pg` writing the same rows in one transaction',
      connections: SEND_CONNECTIONS,
      messagesPerRequest: 1,
      bare: {
        label: 'bare Fastify + pg POST /messages',
        url: `${bareBase}/messages`,
        headers: json,
        body: JSON.stringify(sendBody(1)),
      },
      platform: {
        label: 'embedded POST /v1/email/messages',
        url: `${base}/v1/email/messages`,
        headers: auth,
        body: JSON.stringify(sendBody(1)),
      },
    },
    {
      key: 'batches',
      title: `Batches of ${BATCH_SIZE}: \`POST /v1/email/batches\` against bare Fastify + \`pg\` writing the same ${BATCH_SIZE} messages in one transaction`,
      connections: BATCH_CONNECTIONS,
      messagesPerRequest: BATCH_SIZE,
      bare: {
        label: `bare Fastify + pg POST /batches (${BATCH_SIZE})`,
        url: `${bareBase}/batches`,
        headers: json,
        body: JSON.stringify(batchBody(BATCH_SIZE)),
      },
      platform: {
        label: `embedded POST /v1/email/batches (${BATCH_SIZE})`,
        url: `${base}/v1/email/batches`,
        headers: auth,
        body: JSON.stringify(batchBody(BATCH_SIZE)),
      },
    },
  ].filter((comparison) => options.only.includes(comparison.key));

  for (const comparison of comparisons) {
    const runs = [{ kind: 'bare', ...comparison.bare }];
    if (!options.bareOnly) runs.push({ kind: 'platform', ...comparison.platform });
    for (const run of runs) {
      run.connections = comparison.connections;
      log(`${run.label}: warm-up ${WARMUP_S} s at ${comparison.connections} connections`);
      await load(`${run.label} (warm-up)`, run, WARMUP_S).catch(withExit(run.kind, groups));
      Object.assign(run, { rounds: [], logLines: 0, delivered: 0 });
      run.cpu = { seconds: 0, target: 0, platform: 0, postgres: 0, loader: 0, sink: 0, other: 0 };
    }
    // The targets take turns (forward, then backward, ...): the machine's state drifts, and the
    // delivery workers' backlog grows; one block per target would hand either to one side.
    log(
      `  measuring: ${ROUNDS} rounds of ${ROUND_S} s per target at ${comparison.connections} connections, taking turns`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const run of round % 2 ? [...runs].reverse() : runs) {
        const linesBefore = platform.lines;
        const sunkBefore = (await sinkStats()).messages;
        const before = await cpuSnapshot(leaders());
        const result = await load(run.label, run, ROUND_S).catch(withExit(run.kind, groups));
        const after = await cpuSnapshot(leaders());
        run.delivered += (await sinkStats()).messages - sunkBefore;
        run.rounds.push(result);
        run.logLines += platform.lines - linesBefore;
        if (before && after) {
          const seconds = Number(after.at - before.at) / 1e9;
          const cpuOf = (list) =>
            list.reduce(
              (sum, child) =>
                sum +
                ((after.byGroup[child.proc.pid] ?? 0) - (before.byGroup[child.proc.pid] ?? 0)) /
                  100,
              0,
            );
          const other = Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100);
          run.cpu.seconds += seconds;
          run.cpu.target += cpuOf(groups[run.kind]);
          run.cpu.platform += cpuOf(groups.platform);
          run.cpu.postgres += cpuOf(groups.postgres);
          run.cpu.sink += cpuOf(groups.sink);
          run.cpu.loader += (after.self - before.self) / 100;
          run.cpu.other += other;
          if (other / seconds > BUSY_MACHINE_CPUS)
            log(
              `  warning: other processes used ${(other / seconds).toFixed(2)} CPU on average during a round of ${run.label}: the figures are noisy`,
            );
        }
      }
    }
    comparison.runs = runs.map((run) => ({ ...run, result: combine(run.rounds) }));
  }
  // The goal's rate offered open-loop (autocannon's overallRate) on the same 64 connections: the
  // latency at 1,000 sends/s, where the closed-loop runs above measure it at saturation.
  const sends = comparisons.find((c) => c.key === 'sends');
  if (sends && !options.bareOnly) {
    log(
      `embedded POST /v1/email/messages: ${options.durationS} s at ${GOALS.acceptedPerSecond}/s offered`,
    );
    const result = await load(
      'embedded POST /v1/email/messages (paced)',
      { ...sends.platform, connections: SEND_CONNECTIONS, overallRate: GOALS.acceptedPerSecond },
      options.durationS,
    ).catch(withExit('platform', groups));
    measurements.paced = {
      rate: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      p99All: result.latencyAll.p99,
    };
  }
  measurements.backlog = await backlogOf(db);
  if (options.latencyTrace) await writeFile(options.latencyTrace, latencyTrace.join('\n') + '\n');
  await cleanup();

  const report = buildReport(comparisons, measurements);
  log('');
  log(report.text);
  log('');
  for (const line of report.verdicts) log(line);
  const logLines = comparisons
    .flatMap((c) => c.runs)
    .reduce((sum, run) => sum + (run.logLines ?? 0), 0);
  if (logLines) log(`note: the platform wrote ${logLines} log line(s) during the measured runs`);
  if (options.write) {
    await writeSection(report.markdown);
    log(`wrote the "${SECTION_HEADING}" section of ${RESULTS_FILE}`);
  }
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit({ met: 0, 'not met': 1, inconclusive: 3 }[report.status]);
}

function withExit(kind, groups) {
  return (err) => {
    const dead = [...groups[kind], ...groups.postgres].filter(
      (child) => child.exitCode !== undefined,
    );
    const tails = kind === 'platform' && !dead.length ? tailOf(groups.platform[0], 15) : '';
    throw new Error(
      `${err.message}${dead.map((child) => ` (${child.name} exited with ${child.exitCode}${tailOf(child)})`).join('')}${tails}`,
    );
  };
}

/** The sink fed by nodemailer from this process: what it takes at most with this many connections. */
async function sinkAlone(port, sinkStats, sinkReset) {
  const nodemailer = require('nodemailer');
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: SINK_ALONE_CONNECTIONS,
    maxMessages: Infinity,
  });
  const send = (n) => {
    const body = sendBody(n);
    return transport.sendMail({
      from: `"${body.from.name}" <${body.from.email}>`,
      to: body.to[0],
      subject: body.subject,
      html: body.html,
      text: body.text,
      messageId: `<sink-alone-${n}@${SENDING_DOMAIN}>`,
    });
  };
  // Warm-up, then the measured run.
  await Promise.all(Array.from({ length: 200 }, (_, n) => send(n)));
  await sinkReset();
  const start = Date.now();
  await Promise.all(Array.from({ length: options.messages }, (_, n) => send(1000 + n)));
  const stats = await sinkStats();
  transport.close();
  await sinkReset();
  const ms = Math.max(1, stats.last_at - start);
  return { messages: stats.messages, ms, perSecond: (stats.messages / ms) * 1000 };
}

/**
 * Sends N messages through `POST /v1/email/batches` and times them into the sink: from the moment
 * the first batch was sent to the last message the sink received; then until the platform records
 * every one `delivered`.
 */
async function deliveryRun({ base, apiKey, db, sinkStats, sinkReset, platform, leaders, groups }) {
  const sendAll = async (count, offset, onAccepted) => {
    const ids = [];
    let next = 0;
    const batches = Math.ceil(count / BATCH_SIZE);
    const worker = async () => {
      while (next < batches) {
        const index = next++;
        const size = Math.min(BATCH_SIZE, count - index * BATCH_SIZE);
        const answer = await request(`${base}/v1/email/batches`, {
          method: 'POST',
          token: apiKey,
          body: batchBody(size, offset + index * BATCH_SIZE),
        });
        if (answer.status !== 202)
          throw new Error(
            `POST /v1/email/batches answered ${answer.status}: ${answer.text.slice(0, 500)}${tailOf(platform, 15)}`,
          );
        onAccepted?.();
        for (const item of answer.json.data) ids.push(item.id);
      }
    };
    await Promise.all(Array.from({ length: DELIVERY_SEND_CONCURRENCY }, worker));
    return ids;
  };
  const waitSink = async (count, since, timeoutMs) => {
    const deadline = since + timeoutMs;
    for (;;) {
      const stats = await sinkStats();
      if (stats.messages >= count || Date.now() > deadline) return stats;
      await sleep(50);
    }
  };

  log(`delivery: warm-up, ${DELIVERY_WARMUP_MESSAGES} messages through the relay ...`);
  await sinkReset();
  const warmStart = Date.now();
  await sendAll(DELIVERY_WARMUP_MESSAGES, 1_000_000);
  const warm = await waitSink(DELIVERY_WARMUP_MESSAGES, warmStart, DELIVERY_TIMEOUT_MS);
  if (warm.messages < DELIVERY_WARMUP_MESSAGES)
    throw new Error(
      `delivery warm-up: the sink received ${warm.messages} of ${DELIVERY_WARMUP_MESSAGES} messages within ${DELIVERY_TIMEOUT_MS / 1000} s${tailOf(platform, 20)}`,
    );
  // Let the warm-up's deliveries be recorded before the measured run starts on an empty queue.
  await waitDelivered(db, undefined, 30_000);
  await sinkReset();

  log(
    `delivery: ${options.messages} messages in batches of ${BATCH_SIZE}, timed into the sink ...`,
  );
  const before = await cpuSnapshot(leaders());
  const firstSent = Date.now();
  let acceptedAt;
  const ids = await sendAll(options.messages, 0, () => (acceptedAt ??= Date.now()));
  const allAccepted = Date.now();
  const sampling = options.sampleQueries ? sampleQueries(db) : undefined;
  const tablesBefore = options.sampleQueries ? await tableCounters(db) : undefined;
  const stats = await waitSink(options.messages, firstSent, DELIVERY_TIMEOUT_MS);
  if (sampling) {
    printSamples(await sampling.stop(), 'the delivery run');
    await waitDelivered(db, undefined, 60_000);
    printTableCounters(tablesBefore, await tableCounters(db), options.messages);
  }
  const after = await cpuSnapshot(leaders());
  const recorded = await waitDelivered(db, ids, 60_000);
  const ms = Math.max(1, (stats.last_at ?? Date.now()) - firstSent);
  const run = {
    messages: options.messages,
    received: stats.messages,
    unique: stats.unique,
    duplicates: stats.duplicates,
    dkimSigned: stats.dkim_signed,
    sessions: stats.sessions,
    maxSessions: stats.max_concurrent_sessions,
    acceptMs: allAccepted - firstSent,
    firstAcceptMs: (acceptedAt ?? allAccepted) - firstSent,
    ms,
    perSecond: (stats.messages / ms) * 1000,
    recordedMs: recorded.at ? recorded.at - firstSent : undefined,
    statuses: recorded.statuses,
    complete: stats.messages >= options.messages,
  };
  if (before && after) {
    const seconds = Number(after.at - before.at) / 1e9;
    const cpuOf = (list) =>
      list.reduce(
        (sum, child) =>
          sum +
          ((after.byGroup[child.proc.pid] ?? 0) - (before.byGroup[child.proc.pid] ?? 0)) / 100,
        0,
      );
    run.cpu = {
      seconds,
      platform: cpuOf(groups.platform),
      postgres: cpuOf(groups.postgres),
      sink: cpuOf(groups.sink),
      other: Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100),
    };
    if (run.cpu.other / seconds > BUSY_MACHINE_CPUS)
      log(
        `  warning: other processes used ${(run.cpu.other / seconds).toFixed(2)} CPU on average during the delivery run: the figure is noisy`,
      );
  }
  log(
    `  ${run.received} of ${run.messages} received in ${(ms / 1000).toFixed(2)} s: ${int(run.perSecond)} messages/s (all accepted after ${(run.acceptMs / 1000).toFixed(2)} s)`,
  );
  return run;
}

/**
 * Diagnostic: samples pg_stat_activity every few milliseconds until stopped; what PostgreSQL's
 * busy backends were running, by statement (first 160 characters) and wait event.
 */
function sampleQueries(db) {
  const counts = new Map();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await db.query(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query,
                coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait
         FROM pg_stat_activity
         WHERE state NOT IN ('idle') AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      samples++;
      for (const row of rows) {
        const key = `${row.wait.padEnd(24)} ${row.query}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await sleep(5);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { samples, counts };
    },
  };
}

/** Diagnostic: PostgreSQL's per-table and per-database counters (cumulative). */
async function tableCounters(db) {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query(
    `SELECT schemaname || '.' || relname AS name, seq_scan, seq_tup_read, coalesce(idx_scan, 0) AS idx_scan,
            n_tup_ins, n_tup_upd, n_tup_del
     FROM pg_stat_user_tables`,
  );
  const [database] = (
    await db.query(
      'SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()',
    )
  ).rows;
  return { tables: new Map(rows.map((row) => [row.name, row])), database };
}

function printTableCounters(before, after, messages) {
  const per = (a, b) => ((Number(a) - Number(b)) / messages).toFixed(2);
  log(
    `PostgreSQL counters per delivered message (${messages}, the whole database, so the bench's own polling too): ${per(after.database.xact_commit, before.database.xact_commit)} commits, ${per(after.database.xact_rollback, before.database.xact_rollback)} rollbacks`,
  );
  log(
    '  table                          seq_scan  seq_tup_read  idx_scan  inserted  updated  deleted',
  );
  for (const [name, row] of after.tables) {
    const was = before.tables.get(name) ?? {};
    const cells = [
      'seq_scan',
      'seq_tup_read',
      'idx_scan',
      'n_tup_ins',
      'n_tup_upd',
      'n_tup_del',
    ].map((field) => per(row[field], was[field] ?? 0));
    if (cells.every((cell) => Number(cell) === 0)) continue;
    log(
      `  ${name.padEnd(30)} ${cells.map((cell, i) => cell.padStart([8, 13, 9, 9, 8, 8][i])).join(' ')}`,
    );
  }
}

function printSamples({ samples, counts }, label) {
  log(
    `PostgreSQL backends during ${label}: ${samples} samples of pg_stat_activity, busy backends per sample by statement`,
  );
  for (const [key, n] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    log(`  ${(n / samples).toFixed(2).padStart(5)}  ${key}`);
}

/**
 * Waits until the platform has recorded the messages (all of them when `ids` is undefined) in a
 * final state; returns when, and the statuses of `ids`.
 */
async function waitDelivered(db, ids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const finals = ['delivered', 'bounced', 'rejected', 'partial_failure', 'complained', 'canceled'];
  for (;;) {
    const { rows } = ids
      ? await db.query(
          'SELECT status, count(*)::int AS n FROM email.messages WHERE id = ANY($1) GROUP BY status',
          [ids],
        )
      : await db.query('SELECT status, count(*)::int AS n FROM email.messages GROUP BY status');
    const statuses = Object.fromEntries(rows.map((row) => [row.status, row.n]));
    const pending = rows.filter((row) => !finals.includes(row.status)).length;
    if (!pending) return { at: Date.now(), statuses };
    if (Date.now() > deadline) return { at: undefined, statuses };
    await sleep(100);
  }
}

/** How many messages were accepted in all and how many the platform had delivered at the end. */
async function backlogOf(db) {
  try {
    const { rows } = await db.query(
      'SELECT status, count(*)::int AS n FROM email.messages GROUP BY status ORDER BY status',
    );
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  } catch {
    return undefined;
  }
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
    latency: {
      p50: p50s[Math.floor((p50s.length - 1) / 2)],
      p99: Math.max(...rounds.map((r) => r.latency.p99)),
      max: Math.max(...rounds.map((r) => r.latency.max)),
    },
    firstRequests: rounds.flatMap((r) => r.firstRequests),
    latencyAll: { p99: Math.max(...rounds.map((r) => r.latencyAll.p99)) },
  };
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
    nodemailer: require('nodemailer/package.json').version,
    smtpServer: require('smtp-server/package.json').version,
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
    const dirty =
      git('status', '--porcelain', '--untracked-files=all', '--', 'apps', 'libs') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in apps/ or libs/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

const pct = (value) => `${(value * 100).toFixed(1)}%`;
const int = (value) => Math.round(value).toLocaleString('en-US');
const us = (value) => (value === undefined ? '?' : `${value.toFixed(0)} µs`);

function buildReport(comparisons, measurements) {
  const m = machine();
  const otherCpus = [];
  for (const c of comparisons)
    for (const run of c.runs) if (run.cpu?.seconds) otherCpus.push(run.cpu.other / run.cpu.seconds);
  const delivery = measurements.delivery;
  if (delivery?.cpu) otherCpus.push(delivery.cpu.other / delivery.cpu.seconds);
  const busiest = otherCpus.length ? Math.max(...otherCpus) : undefined;
  const meanOther = otherCpus.length
    ? otherCpus.reduce((a, b) => a + b, 0) / otherCpus.length
    : undefined;
  const noisy = busiest !== undefined && busiest > BUSY_MACHINE_CPUS;

  const goals = [];
  const goal = (met, text, { counts = true } = {}) => goals.push({ met, text, counts });
  const text = [];
  const markdown = [];

  const order = ['sends', 'scheduled', 'batches'];
  const shown = [...comparisons].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
  for (const c of shown) {
    const bare = c.runs.find((r) => r.kind === 'bare');
    const platform = c.runs.find((r) => r.kind === 'platform');
    const per = (run) => run.result.requests.average * c.messagesPerRequest;
    const rows = c.runs.map((run) => {
      const requests = run.result.requests.total;
      const perRequest = (seconds) => (run.cpu?.seconds ? (seconds * 1e6) / requests : undefined);
      return {
        target: run.label,
        rps: int(run.result.requests.average),
        mps: int(per(run)),
        ratio: pct(per(run) / per(bare)),
        p50: `${run.result.latency.p50} ms`,
        p99: `${run.result.latency.p99} ms`,
        cpu: us(perRequest(run.cpu.target)),
        pg: us(perRequest(run.cpu.postgres)),
        workers:
          run.kind === 'bare' && run.cpu?.seconds
            ? (run.cpu.platform / run.cpu.seconds).toFixed(2)
            : '-',
        delivered: run.cpu?.seconds ? int(run.delivered / run.cpu.seconds) : '?',
        other: run.cpu?.seconds ? (run.cpu.other / run.cpu.seconds).toFixed(2) : '?',
      };
    });
    const header = {
      target: 'target',
      rps: 'req/s',
      mps: 'accepted/s',
      ratio: 'of bare',
      p50: 'p50',
      p99: 'p99',
      cpu: 'CPU/req',
      pg: 'PG CPU/req',
      workers: 'platform CPUs',
      delivered: 'delivered/s',
      other: 'other CPUs',
    };
    const cols = Object.keys(header).filter((col) => c.messagesPerRequest > 1 || col !== 'rps');
    const width = Object.fromEntries(
      cols.map((col) => [col, Math.max(header[col].length, ...rows.map((r) => r[col].length))]),
    );
    const line = (r) =>
      cols
        .map((col, i) => (i === 0 ? r[col].padEnd(width[col]) : r[col].padStart(width[col])))
        .join('  ');
    text.push(
      c.title.replace(/`/g, ''),
      line(header),
      cols.map((col) => '-'.repeat(width[col])).join('  '),
      ...rows.map(line),
      '',
    );
    markdown.push(
      `### ${c.title}`,
      '',
      `| ${cols.map((col) => header[col]).join(' | ')} |`,
      `|---|${cols
        .slice(1)
        .map(() => '---:')
        .join('|')}|`,
      ...rows.map((r) => `| ${cols.map((col) => r[col]).join(' | ')} |`),
      '',
    );
    if (!platform) continue;
    const ratio = per(platform) / per(bare);
    if (c.key === 'sends') {
      const rate = per(platform);
      const p99 = platform.result.latency.p99;
      goal(
        ratio >= GOALS.ratio,
        `accepted sends vs bare: ${pct(ratio)} (goal >= ${pct(GOALS.ratio)})`,
      );
      goal(
        rate >= GOALS.acceptedPerSecond && p99 < GOALS.p99Ms,
        `accepted sends: ${int(rate)}/s at p99 ${p99} ms (goal >= ${int(GOALS.acceptedPerSecond)}/s with p99 < ${GOALS.p99Ms} ms, ${m.cores} cores)`,
      );
      const first = (run) => {
        const values = run.result.firstRequests;
        return `p50 ${Math.round(percentile(values, 50))} ms, max ${Math.round(Math.max(...values))} ms`;
      };
      const firstText = `each connection's first request of a round (the connect included; not in the p50 and p99 above): embedded ${first(platform)}, bare ${first(bare)}, over ${platform.result.firstRequests.length} connections each; counting them too, p99 ${platform.result.latencyAll.p99} ms embedded, ${bare.result.latencyAll.p99} ms bare`;
      goals.push({ info: true, text: firstText });
      markdown.push(
        `First requests: ${firstText}. autocannon opens ${SEND_CONNECTIONS} new connections at the start of every round (a client of the API opens its connections once and keeps them); in rounds of ${ROUND_S} s these first requests are about 1% of a round's requests, where its p99 reads.`,
        '',
      );
      const paced = measurements.paced;
      if (paced) {
        const text = `sends offered at ${int(GOALS.acceptedPerSecond)}/s (open loop, ${SEND_CONNECTIONS} connections, delivery running): ${int(paced.rate)} accepted/s, p50 ${paced.p50} ms, p99 ${paced.p99} ms (${paced.p99All} ms counting each connection's first request)`;
        goals.push({ info: true, text });
        markdown.push(
          `Paced: ${text}. The closed-loop rounds above saturate the platform (each connection sends again as soon as it is answered), so their p99 is that of a queue at its limit; this run offers the goal's rate on the same connections.`,
          '',
        );
      }
      goal(
        rate >= GOALS.moonshotPerSecond,
        `moonshot: ${int(rate)} accepted/s (moonshot >= ${int(GOALS.moonshotPerSecond)}/s)`,
        { counts: false },
      );
      markdown.push(
        `Accepted/s of bare: **${pct(ratio)}** (goal at least ${pct(GOALS.ratio)}); embedded ${int(rate)} accepted/s at p99 ${p99} ms (goal at least ${int(GOALS.acceptedPerSecond)}/s with p99 under ${GOALS.p99Ms} ms; moonshot ${int(GOALS.moonshotPerSecond)}/s).`,
        '',
      );
    } else if (c.key === 'scheduled') {
      goals.push({
        info: true,
        text: `control, sends scheduled ${SCHEDULE_AHEAD_DAYS} days ahead (no delivery meanwhile): ${int(per(platform))} accepted/s at p99 ${platform.result.latency.p99} ms, ${pct(ratio)} of bare`,
      });
      markdown.push(
        `Control: ${int(per(platform))} accepted/s at p99 ${platform.result.latency.p99} ms, **${pct(ratio)}** of bare. The same accept path with no delivery work in the background: in the rounds above, the platform's delivery workers share its process during its own rounds but have it to themselves during the bare rounds (compare delivered/s), which PostgreSQL's CPU also pays for.`,
        '',
      );
    } else {
      goals.push({
        info: true,
        text: `batches of ${BATCH_SIZE}: ${int(per(platform))} messages/s (${int(platform.result.requests.average)} batches/s), p99 ${platform.result.latency.p99} ms, ${pct(ratio)} of bare (no goal set)`,
      });
      markdown.push(
        `Batches: ${int(per(platform))} messages/s at p99 ${platform.result.latency.p99} ms per batch of ${BATCH_SIZE}, ${pct(ratio)} of bare (no goal set).`,
        '',
      );
    }
  }
  if (comparisons.length) {
    const note =
      'CPU/req: the serving process, and PostgreSQL, per request. platform CPUs: what the platform process (its delivery workers, on the backlog of both sides) used during the bare rounds. delivered/s: messages the sink received during the rounds. other CPUs: processes outside this bench.';
    text.push(note, '');
    markdown.push(`${note}`, '');
  }

  if (delivery) {
    const minutes = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const lines = [
      `${delivery.received} of ${delivery.messages} messages (sent as ${Math.ceil(delivery.messages / BATCH_SIZE)} batches of ${BATCH_SIZE}, ${DELIVERY_SEND_CONCURRENCY} in flight) reached the sink ${minutes(delivery.ms)} after the first batch was sent: **${int(delivery.perSecond)} messages/s** (goal at least ${GOALS.deliveredPerSecond}/s, three times Postal's reported ~${POSTAL_PER_SECOND}/s).`,
      `All accepted after ${minutes(delivery.acceptMs)} (first 202 after ${minutes(delivery.firstAcceptMs)}); ${delivery.unique} distinct Message-IDs, ${delivery.duplicates} duplicate(s), ${delivery.dkimSigned} DKIM-signed; ${delivery.sessions} SMTP session(s), at most ${delivery.maxSessions} at once.`,
      delivery.recordedMs !== undefined
        ? `Every message recorded in a final state by the platform ${minutes(delivery.recordedMs)} after the first send: ${Object.entries(
            delivery.statuses,
          )
            .map(([status, n]) => `${n} ${status}`)
            .join(', ')}.`
        : `Not every message was recorded in a final state within a minute: ${JSON.stringify(delivery.statuses)}.`,
      delivery.cpu
        ? `CPU during the run (${delivery.cpu.seconds.toFixed(1)} s): platform ${(delivery.cpu.platform / delivery.cpu.seconds).toFixed(2)}, PostgreSQL ${(delivery.cpu.postgres / delivery.cpu.seconds).toFixed(2)}, sink ${(delivery.cpu.sink / delivery.cpu.seconds).toFixed(2)}, other processes ${(delivery.cpu.other / delivery.cpu.seconds).toFixed(2)} CPUs.`
        : '',
      measurements.sinkAlone
        ? `The sink alone, fed by nodemailer from the bench process over ${SINK_ALONE_CONNECTIONS} pooled connections: ${int(measurements.sinkAlone.perSecond)} messages/s (${measurements.sinkAlone.messages} messages).`
        : '',
    ].filter(Boolean);
    text.push(
      'Delivery through the relay (SMTP_RELAY_URL) into the SMTP sink',
      ...lines.map((l) => l.replace(/\*\*/g, '')),
      '',
    );
    markdown.push(
      '### Delivery through the relay (`SMTP_RELAY_URL`) into the SMTP sink',
      '',
      ...lines.map((l) => `${l}\n`),
    );
    goal(
      delivery.complete && delivery.perSecond >= GOALS.deliveredPerSecond,
      `delivered into the sink: ${int(delivery.perSecond)} messages/s${delivery.complete ? '' : ` (only ${delivery.received} of ${delivery.messages} arrived within ${DELIVERY_TIMEOUT_MS / 1000} s)`} (goal >= ${GOALS.deliveredPerSecond}/s)`,
    );
  }

  const busyNote =
    busiest === undefined
      ? ''
      : `other processes used ${meanOther.toFixed(2)} CPU on average over the measured runs, ${busiest.toFixed(2)} at most`;
  const verdicts = goals.map((g) =>
    g.info
      ? `INFO    ${g.text}`
      : `${g.met ? 'MEETS ' : 'MISSES'}  ${g.text}${g.counts ? '' : ' [moonshot, not a goal]'}${noisy ? ' [inconclusive: busy machine]' : ''}`,
  );
  if (busyNote) verdicts.push(`${(noisy ? 'BUSY' : 'QUIET').padEnd(6)}  ${busyNote}`);
  const counted = goals.filter((g) => !g.info && g.counts);
  const allMet = counted.every((g) => g.met);
  const status = noisy ? 'inconclusive' : allMet ? 'met' : 'not met';
  const summary = goals
    .filter((g) => !g.info)
    .map((g) => `- ${g.met ? 'MEETS' : 'MISSES'}: ${g.text}${g.counts ? '' : ' (moonshot)'}`);

  const section = `${SECTION_HEADING}

${
  status === 'inconclusive'
    ? `**Inconclusive: the machine was busy** (${busyNote}; the limit is ${BUSY_MACHINE_CPUS}); rerun on a quiet machine. Figures as measured:`
    : `**Result: ${status === 'met' ? 'every goal met' : 'NOT every goal met'}.**`
}

${summary.join('\n')}

${markdown.join('\n')}
### How it was measured

- Date: ${measurements.started}
- Machine: ${m.cpu}, ${m.cores} logical CPUs, ${m.memory} RAM, ${m.os}${busyNote ? `; ${busyNote}` : ''}
- Code: commit ${m.commit}
- Node ${m.node}; autocannon ${m.autocannon}; fastify ${m.fastify}; pg ${m.pg}; nodemailer ${m.nodemailer}; smtp-server ${m.smtpServer}
- Embedded default: \`node dist/apps/standalone/src/main.js\` in its own process, \`LOG_LEVEL=${options.logLevel}\`, pools of ${POOL_SIZE},
  \`RATE_LIMITS=${RATE_LIMITS}\` (the limiter runs, no run can spend its quota), \`SMTP_RELAY_URL\` the sink, delivery
  settings at their defaults; mail from the verified domain is DKIM-signed (RSA-2048);
  one workspace created through \`POST /admin/v1/workspaces\`, its sending domain \`${SENDING_DOMAIN}\` registered and verified
  through the API against a local DNS server; requests authenticated with the workspace's API key, no Idempotency-Key
- Bare: \`bench/bare-email.mjs\` in its own process, Fastify without logger and a \`pg\` Pool of ${POOL_SIZE}; per request the
  email service's \`draftMessage\` and \`insertDrafts\` (from \`dist/\`, so the same SQL) inside BEGIN/COMMIT on one pooled client,
  answering 202 with the ids; no authentication, validation, sender-domain check or rate limiting. It writes into the
  platform's database, so the platform's delivery workers process and deliver its messages like its own
- Body: one recipient, subject, HTML (~600 bytes) and text (~300 bytes), \`category: transactional\`, one tag
- Load: autocannon in the bench process, pipelining 1, nothing pinned (PostgreSQL needs a CPU too); per comparison each
  target is warmed up ${WARMUP_S} s, then measured in ${ROUNDS} rounds of ${ROUND_S} s, the targets taking turns (forward, backward, ...);
  throughput over all rounds (every answer counted), p50 the median of the rounds', p99 the worst, both over the requests
  on open connections: autocannon opens new connections every round and times each one's first request from before the
  connect, so those are reported on their own above (the paced run likewise). Sends at ${SEND_CONNECTIONS} connections, batches at ${BATCH_CONNECTIONS}
- Order: delivery first, on an empty queue after a warm-up of ${DELIVERY_WARMUP_MESSAGES} delivered messages; then the control (sends
  scheduled ${SCHEDULE_AHEAD_DAYS} days ahead, nothing to deliver), the sends, the batches. The sink (\`bench/smtp-sink.mjs\`, smtp-server) is its
  own process and counts messages, distinct Message-IDs and DKIM signatures; times are this machine's clock in both processes
- The delivery workers keep running during the side-by-side runs (they cannot be turned off), on the backlog of both sides:
  ${
    measurements.backlog
      ? `at the end, ${Object.entries(measurements.backlog)
          .map(([s, n]) => `${int(n)} ${s}`)
          .join(', ')}`
      : 'backlog unknown'
  }
- PostgreSQL: one embedded PostgreSQL (\`tools/embedded-postgres.mjs\`), fresh data directory, default durability (fsync on)
- Errors, timeouts and non-2xx answers: 0 in every run (the script fails otherwise)

\`\`\`sh
npm run bench:email              # build, measure, print the figures and MEETS / MISSES
npm run bench:email -- --write   # same, and rewrite this section (every other section is kept)
\`\`\`

Exit status 0 every goal met (the moonshot is information), 1 a goal missed or the run failed, 3 inconclusive (other
processes above ${BUSY_MACHINE_CPUS} CPU during a measured run; \`--write\` still writes this section, marked inconclusive).
Diagnostics, not recorded: \`--only=delivery,scheduled,sends,batches\`, \`--bare-only\`, \`--sample-queries\` (what PostgreSQL's
backends were busy with during the delivery run), \`--duration=<s>\`, \`--messages=<n>\`, \`--log-level=<level>\`,
\`--latency-trace=<file>\` (every answer: when its run started, when it came, its latency, its connection's nth request, the run).
`;
  return { text: text.join('\n'), verdicts, markdown: section, status };
}

/**
 * Replaces the `## Email sending` section of RESULTS.md (up to the next `## ` heading outside a
 * code fence), or adds it before `## Gateway policies` (which bench:policies rewrites from its
 * heading to the end of the file) or at the end. Everything else is kept as it is.
 */
async function writeSection(section) {
  let current = '';
  try {
    current = await readFile(RESULTS_FILE, 'utf8');
  } catch {
    /* a new file */
  }
  const lines = current.split('\n');
  const headings = [];
  let fenced = false;
  lines.forEach((line, index) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && /^## /.test(line)) headings.push({ index, line });
  });
  const body = section.trimEnd().split('\n');
  const own = headings.findIndex((h) => h.line.startsWith('## Email sending'));
  let next;
  if (own >= 0) {
    const end = headings[own + 1]?.index ?? lines.length;
    next = [...lines.slice(0, headings[own].index), ...body, '', ...lines.slice(end)];
  } else {
    const policies = headings.find((h) => h.line.startsWith('## Gateway policies'));
    next = policies
      ? [...lines.slice(0, policies.index), ...body, '', ...lines.slice(policies.index)]
      : [...(current.trimEnd() ? [current.trimEnd(), ''] : []), ...body, ''];
  }
  await writeFile(RESULTS_FILE, `${next.join('\n').trimEnd()}\n`);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
