#!/usr/bin/env node
// WhatsApp template sends on the embedded default, side by side in one run with the bare ceiling,
// on this machine: `POST /v1/whatsapp/messages` at 64 connections against a bare Fastify + `pg`
// route (bench/bare-whatsapp.mjs) running the service's own sender and template reads and accept
// SQL, the two taking turns in rounds. The platform's dispatch workers hand both sides' messages
// to a Graph stand-in (libs/testing, in this process) meanwhile.
//
//   npm run bench:whatsapp              build, measure, print the figures and MEETS / MISSES
//   npm run bench:whatsapp -- --write   same, and (re)write its section of bench/RESULTS.md
//   ROUND_S=1 ROUNDS=1 npm run bench:whatsapp   a short smoke run
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { randomUUID } from 'node:crypto';
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
const { startGraphStandIn } = require(join(root, 'dist/libs/testing/src/index.js'));
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## WhatsApp sends (`npm run bench:whatsapp`)';
const write = process.argv.includes('--write');

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ROUND_S = Number(process.env.ROUND_S ?? 3);
const SENDER = '+31612340000';
const PHONE_NUMBER_ID = '100200300';
const GOALS = { ratio: 0.6, acceptedPerSecond: 1000, p99Ms: 100 };

const children = [];
let tmp;
let graph;
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

/** A connected number and an approved template, as a connector and a template sync leave them. */
async function seed(pool, workspaceId) {
  const key = randomUUID().slice(0, 8);
  const q = (sql, params) => pool.query(sql, params);
  await q(
    `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
     VALUES ($1, $2, $3, 'Bench')`,
    [`waa_${key}`, workspaceId, `waba${key}`],
  );
  await q(
    `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
       phone_number_id, phone_number, channel_id, name, status)
     VALUES ($1, $2, $3, $4, $5, $6, 'Bench', 'connected')`,
    [`wan_${key}`, workspaceId, `waa_${key}`, PHONE_NUMBER_ID, SENDER, randomUUID()],
  );
  await q(
    `INSERT INTO sms_whatsapp.whatsapp_templates (id, workspace_id, business_account_id, slug,
       name, category, status, default_language, live_version_id)
     VALUES ($1, $2, $3, 'order_update', 'order_update', 'utility', 'active', 'en', $4)`,
    [`wat_${key}`, workspaceId, `waa_${key}`, `wav_${key}`],
  );
  await q(
    `INSERT INTO sms_whatsapp.whatsapp_template_versions (id, workspace_id, template_id, number,
       status) VALUES ($1, $2, $3, 1, 'live')`,
    [`wav_${key}`, workspaceId, `wat_${key}`],
  );
  await q(
    `INSERT INTO sms_whatsapp.whatsapp_template_languages (version_id, language, workspace_id,
       meta_template_id, components, status, category, content_hash, submitted_at, approved_at)
     VALUES ($1, 'en', $2, $3, $4, 'approved', 'utility', 'h', now(), now())`,
    [
      `wav_${key}`,
      workspaceId,
      `mt${key}`,
      JSON.stringify([{ type: 'BODY', text: 'Your order {{1}} has shipped.' }]),
    ],
  );
  graph.addAccount({ wabaId: `waba${key}` });
  graph.addNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    wabaId: `waba${key}`,
    displayPhoneNumber: SENDER,
  });
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-whatsapp-'));
  graph = await startGraphStandIn();
  const { databaseUrl, base, adminToken } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'whatsapp',
    { WHATSAPP_GRAPH_URL: graph.url, WHATSAPP_ACCESS_TOKEN: graph.accessToken },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const workspaceId = created.workspace.id;
  const token = created.api_key.secret;
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  await seed(pool, workspaceId);
  const bare = startNodeChild(
    children,
    root,
    'bare-whatsapp',
    [join(root, 'bench/bare-whatsapp.mjs'), '0'],
    { DATABASE_URL: databaseUrl, BENCH_WORKSPACE_ID: workspaceId },
  );
  const [, bareBase] = await bare.line(/bare-whatsapp listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const groups = children.map((child) => child.proc.pid);
  const template = {
    slug: 'order_update',
    language: 'en',
    components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1001' }] }],
  };
  const body = { to: '+31655550001', from: SENDER, template };
  const targets = [
    {
      name: 'platform',
      url: `${base}/v1/whatsapp/messages`,
      headers: { authorization: `Bearer ${token}` },
      body,
    },
    { name: 'bare', url: `${bareBase}/messages`, headers: {}, body },
  ];
  log(
    `accepted template sends: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  for (const target of targets) await load(target, WARMUP_S);
  const accepted = { platform: [], bare: [] };
  const cpuBefore = await cpuSnapshot(groups);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) accepted[target.name].push(await load(target, ROUND_S));
  }
  const cpuAfter = await cpuSnapshot(groups);
  const dispatched = (
    await pool.query(
      `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*)::int AS n
       FROM sms_whatsapp.whatsapp_messages`,
    )
  ).rows[0];
  await pool.end();
  return report({ accepted, cpu: cpuShare(cpuBefore, cpuAfter, groups), dispatched });
}

function cpuShare(before, after, groups) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const share = (pid) => (after.byGroup[pid] - before.byGroup[pid]) / 100 / seconds;
  const [postgres, platform, bare] = groups;
  return { platform: share(platform), bare: share(bare), postgres: share(postgres) };
}

async function report({ accepted, cpu, dispatched }) {
  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.requests, 0) /
    runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99 = (runs) => Math.max(...runs.map((run) => run.p99));
  const platform = { rate: rate(accepted.platform), p99: p99(accepted.platform) };
  const bare = { rate: rate(accepted.bare), p99: p99(accepted.bare) };
  const ratio = platform.rate / bare.rate;
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      ratio >= GOALS.ratio,
      `accepted template sends ${Math.round(platform.rate)}/s = ${(ratio * 100).toFixed(1)}% of bare (goal >= ${GOALS.ratio * 100}%)`,
    ],
    [
      platform.rate >= GOALS.acceptedPerSecond,
      `accepted template sends ${Math.round(platform.rate)}/s (goal >= ${GOALS.acceptedPerSecond}/s)`,
    ],
    [
      platform.p99 < GOALS.p99Ms,
      `accepted p99 ${platform.p99} ms, worst round (goal < ${GOALS.p99Ms} ms)`,
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
    `| accepted template sends at ${CONNECTIONS} connections | ${Math.round(platform.rate)}/s, p99 ${platform.p99} ms | ${Math.round(bare.rate)}/s, p99 ${bare.p99} ms | ${(ratio * 100).toFixed(1)}% |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`) on one embedded PostgreSQL (fsync on), `WHATSAPP_GRAPH_URL` pointing at the Graph stand-in of libs/testing in the bench process; a connected number and an approved template seeded as a connector and a sync leave them',
    `- Accepted: autocannon, ${CONNECTIONS} connections, a utility template with one body parameter; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. Bare: Fastify + \`pg\` (pool of 10) with the service's own send rules (sender read, template and language reads), draft and accept SQL (message, event, outbox row, dispatch job in one statement), no auth, no body validation, no group commit; its jobs are dispatched by the platform's workers like the platform's own`,
    `- Dispatched meanwhile: ${dispatched.sent} of ${dispatched.n} messages \`sent\` when the rounds ended`,
    cpu
      ? `- CPU during the rounds: platform ${cpu.platform.toFixed(2)}, bare ${cpu.bare.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)} CPUs`
      : '- CPU: not measured',
    '',
    '```sh',
    'npm run bench:whatsapp              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:whatsapp -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench(
  'whatsapp-send.bench',
  async () => {
    try {
      return await main();
    } finally {
      await graph?.stop();
    }
  },
  children,
  () => tmp,
);
