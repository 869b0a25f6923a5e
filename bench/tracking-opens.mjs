#!/usr/bin/env node
// Open-pixel hits through the platform against a bare Fastify route serving the same GIF, in one
// run on this machine (issue 21's goal: at least 60%). The platform is the embedded default on
// its own PostgreSQL; each hit goes through the gateway's policy pipeline (route, rate-limit
// group `tracking`), the transport to the email service, the token's HMAC check and the group
// commit of opens (ADR 17). The bare side is bench/bare-pixel.mjs. They take turns, ROUNDS
// rounds of ROUND_S seconds each at CONNECTIONS connections; afterwards every answered hit of
// the platform must be recorded (the recipients' open_count), which the bench waits for.
//
//   npm run bench:tracking              build, measure, print figures and MEETS / MISSES
//   npm run bench:tracking -- --write   same, and (re)write its section of RESULTS.md
//   ROUND_S=2 ROUNDS=1 npm run bench:tracking   a short run
//
// Exit status 0 when the goal is met, 1 otherwise (or when the run fails).
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  apiCall,
  assertLoopback,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Email open tracking (`npm run bench:tracking`)';
const write = process.argv.includes('--write');
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUND_S = Number(process.env.ROUND_S ?? 5);
/** Tracked messages the hits spread over (one recipient each). */
const MESSAGES = 50;
const GOAL = 0.6;
const ENCRYPTION_KEY = 'sbenc_bench_tracking_key_0123456789';

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-tracking-'));
  const sink = startNodeChild(children, root, 'SMTP sink', [join(root, 'bench/smtp-sink.mjs')]);
  const [, sinkPort] = await sink.line(/listening at smtp:\/\/127\.0\.0\.1:(\d+)/);
  const bare = startNodeChild(children, root, 'bare pixel', [join(root, 'bench/bare-pixel.mjs')]);
  const [, bareBase] = await bare.line(/listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'tracking',
    { SMTP_RELAY_URL: `smtp://127.0.0.1:${sinkPort}`, ENCRYPTION_KEY },
  );
  const tokens = await trackedOpens(base, adminToken);
  const pg = require('pg');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const sides = [
    { name: 'platform', base, rounds: [] },
    { name: 'bare Fastify', base: bareBase, rounds: [] },
  ];
  log(
    `open pixel: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  // The bare side's turns start once the platform has recorded and relayed what it answered:
  // its opens' group commits, events and stats fold would otherwise run on the bare side's time.
  const settled = [];
  const turn = async (side, seconds) => {
    if (side !== sides[0]) settled.push(await waitSettled(db, sides[0].answered ?? 0));
    return hits(side, tokens, seconds);
  };
  for (const side of sides) await turn(side, WARMUP_S);
  for (let n = 0; n < ROUNDS; n++)
    for (const side of n % 2 ? [...sides].reverse() : sides) {
      const round = await turn(side, ROUND_S);
      side.rounds.push(round);
      log(
        `  ${side.name}: ${Math.round(round.answered / round.seconds)} hits/s, p99 ${round.p99} ms`,
      );
    }
  const answered = sides[0].answered;
  const recordedIn = await waitRecorded(db, answered);
  await db.end();
  return report(sides, answered, recordedIn, settled);
}

/**
 * Waits until every answered hit is recorded, the email outbox relayed and every open folded
 * into the stats (each open's fold claims `ev:<event id>`); answers the ms.
 */
async function waitSettled(db, answered) {
  const started = Date.now();
  await waitRecorded(db, answered);
  for (;;) {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM email.outbox WHERE published_at IS NULL)::int AS unrelayed,
         (SELECT count(*) FROM email.stats_folded_events WHERE key LIKE 'ev:%')::int AS folded`,
    );
    const { unrelayed, folded } = rows[0];
    if (unrelayed === 0 && folded >= answered) return Date.now() - started;
    if (Date.now() - started > 120_000)
      throw new Error(`${unrelayed} events unrelayed, ${folded} of ${answered} opens folded`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** A workspace, MESSAGES tracked sends to its user, and the open token of each recipient. */
async function trackedOpens(base, adminToken) {
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'bench',
  });
  const token = created.api_key.secret;
  const user = 'reader@bench.test';
  await apiCall(base, 'POST', `/admin/v1/workspaces/${created.workspace.id}/users`, adminToken, {
    email: user,
    password: 'a long enough password',
    role: 'read',
  });
  const { TrackingTokens } = require(
    join(root, 'dist/libs/contracts/src/email/tracking-tokens.js'),
  );
  const signer = new TrackingTokens(ENCRYPTION_KEY);
  const tokens = [];
  for (let i = 0; i < MESSAGES; i++) {
    const message = await apiCall(base, 'POST', '/v1/email/messages', token, {
      from: 'news@onboarding.localhost',
      to: [user],
      subject: `Tracked ${i}`,
      html: '<p>Hello</p>',
      track_opens: true,
    });
    const recipients = await apiCall(
      base,
      'GET',
      `/v1/email/messages/${message.id}/recipients`,
      token,
    );
    const recipientId = recipients.data[0].id;
    tokens.push(signer.sign({ kind: 'open', messageId: message.id, recipientId }));
  }
  return tokens;
}

async function hits(side, tokens, seconds) {
  let next = 0;
  const result = await autocannon({
    url: side.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) bench' },
        setupRequest: (request) => ({ ...request, path: `/t/o/${tokens[next++ % tokens.length]}` }),
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${side.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  side.answered = (side.answered ?? 0) + result['2xx'];
  return { answered: result['2xx'], seconds: result.duration, p99: result.latency.p99 };
}

/** Waits until every answered hit is in the recipients' open counts; answers the wait in ms. */
async function waitRecorded(db, answered) {
  const started = Date.now();
  for (;;) {
    const { rows } = await db.query(
      'SELECT coalesce(sum(open_count), 0)::int AS opens FROM email.recipients',
    );
    if (rows[0].opens >= answered) return Date.now() - started;
    if (Date.now() - started > 120_000)
      throw new Error(`only ${rows[0].opens} of ${answered} answered opens recorded`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function report(sides, answered, recordedIn, settled) {
  const rate = (side) =>
    side.rounds.reduce((sum, r) => sum + r.answered, 0) /
    side.rounds.reduce((sum, r) => sum + r.seconds, 0);
  const [platform, bare] = sides.map(rate);
  const ratio = platform / bare;
  const met = ratio >= GOAL;
  const p99 = (side) => Math.max(...side.rounds.map((r) => r.p99));
  const section = [
    HEADING,
    '',
    `**Result: ${met ? 'MEETS' : 'MISSES'}: the platform answers ${Math.round(platform)} open-pixel hits/s against ${Math.round(bare)}/s for a bare Fastify route serving the same GIF: ${(ratio * 100).toFixed(1)}% (goal: at least ${GOAL * 100}%).**`,
    '',
    '| side | hits/s | p99 |',
    '|---|---:|---:|',
    `| platform (gateway, transport, token check, group commit) | ${Math.round(platform)} | ${p99(sides[0])} ms |`,
    `| bare Fastify (bench/bare-pixel.mjs) | ${Math.round(bare)} | ${p99(sides[1])} ms |`,
    '',
    `Every one of the platform's ${answered.toLocaleString('en')} answered hits (warm-up included) was recorded; the last ${recordedIn} ms after the load stopped.`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, Node ${process.version}`,
    `- The embedded platform (\`node dist/apps/standalone/src/main.js\`, \`LOG_LEVEL=warn\`, \`RATE_LIMITS=off\`) on its own embedded PostgreSQL; ${MESSAGES} tracked messages, the hits cycling through their open tokens`,
    `- autocannon, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating`,
    `- Each bare turn starts once the platform has recorded every hit it answered, relayed their events (no unpublished row in \`email.outbox\`) and folded them into the stats, so the platform's work after its round does not run on the bare side's time: that took ${settled.map((ms) => `${ms} ms`).join(', ')} after its turns`,
    '',
    '```sh',
    'npm run bench:tracking              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:tracking -- --write   # same, and rewrite this section',
    '```',
  ].join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('tracking-opens', main, children, () => tmp);
