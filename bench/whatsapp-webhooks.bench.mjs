#!/usr/bin/env node
// WhatsApp webhooks on the embedded default, side by side in one run with the bare ceiling, on
// this machine: signed status webhooks (`POST /webhooks/whatsapp`, Meta's payload with one
// `delivered` status of a connected number) ingested at 64 connections, each answered 200 only
// once its row is in the inbox, against a bare Fastify + `pg` route (bench/bare-whatsapp-
// webhooks.mjs) that verifies the same HMAC and inserts the same row and job, the two taking turns
// in rounds. The platform's workers process both sides' rows meanwhile. Then the backlog: how long
// until every recorded webhook is processed.
//
//   npm run bench:whatsapp-webhooks              build, measure, print the figures and MEETS / MISSES
//   npm run bench:whatsapp-webhooks -- --write   same, and (re)write its section of bench/RESULTS.md
//   ROUND_S=2 ROUNDS=1 npm run bench:whatsapp-webhooks   a short run
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { createHmac } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
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
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## WhatsApp webhooks (`npm run bench:whatsapp-webhooks`)';
const write = process.argv.includes('--write');

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ROUND_S = Number(process.env.ROUND_S ?? 3);
const GOALS = { ratio: 0.6, ingestedPerSecond: 2000 };
/** The backlog is reported, not a goal: waited for this long at most. */
const BACKLOG_WAIT_MS = Number(process.env.BACKLOG_WAIT_S ?? 120) * 1000;
const APP_SECRET = 'bench-meta-app-secret';
const WABA = '102290129340398';
const PHONE_NUMBER_ID = '106540352242922';

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A status webhook as Meta posts it (compact JSON, one `delivered` status). */
function statusWebhook() {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID },
              statuses: [
                {
                  id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA',
                  status: 'delivered',
                  timestamp: '1750263773',
                  recipient_id: '16505551234',
                  conversation: {
                    id: 'CONVERSATION_ID',
                    origin: { type: 'utility' },
                  },
                  pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
                },
              ],
            },
            field: 'messages',
          },
        ],
      },
    ],
  });
}

/** One autocannon run of `seconds` against a target; fails on any error or non-2xx answer. */
async function load(target, seconds) {
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.headers,
    body: target.body,
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99 };
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-whatsapp-webhooks-'));
  const { databaseUrl, base } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'whatsapp_webhooks',
    { WHATSAPP_APP_SECRET: APP_SECRET },
  );
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  // The number the statuses are for, connected as the connector flow leaves it.
  await pool.query(
    `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
     VALUES ('wab_bench', 'ws_bench', $1, 'Bench')`,
    [WABA],
  );
  await pool.query(
    `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
       phone_number_id, phone_number, channel_id, name, status)
     VALUES ('wan_bench', 'ws_bench', 'wab_bench', $1, '+15550783881', gen_random_uuid(),
       'Bench', 'connected')`,
    [PHONE_NUMBER_ID],
  );
  const bare = startNodeChild(
    children,
    root,
    'bare-whatsapp-webhooks',
    [join(root, 'bench/bare-whatsapp-webhooks.mjs'), '0'],
    { DATABASE_URL: databaseUrl, WHATSAPP_APP_SECRET: APP_SECRET },
  );
  const [, bareBase] = await bare.line(
    /bare-whatsapp-webhooks listening at (http:\/\/127\.0\.0\.1:\d+)/,
  );
  assertLoopback(bareBase);
  const count = async (sql) => (await pool.query(sql)).rows[0].n;
  const groups = children.map((child) => child.proc.pid);
  const body = statusWebhook();
  const headers = {
    'content-type': 'application/json',
    'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`,
  };
  const targets = [
    { name: 'platform', url: `${base}/webhooks/whatsapp`, headers, body },
    { name: 'bare', url: `${bareBase}/webhooks/whatsapp`, headers, body },
  ];

  log(
    `signed status webhooks: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections ...`,
  );
  for (const target of targets) await load(target, WARMUP_S);
  const ingested = { platform: [], bare: [] };
  const cpuBefore = await cpuSnapshot(groups);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) ingested[target.name].push(await load(target, ROUND_S));
  }
  const cpuAfter = await cpuSnapshot(groups);
  log('waiting for the inbox to be processed ...');
  const backlogStarted = Date.now();
  const backlog = await count(
    `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_webhook_inbox WHERE processed_at IS NULL`,
  );
  let left = backlog;
  while (left > 0 && Date.now() - backlogStarted < BACKLOG_WAIT_MS) {
    await sleep(100);
    left = await count(
      `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_webhook_inbox WHERE processed_at IS NULL`,
    );
  }
  const backlogMs = Date.now() - backlogStarted;
  const failed = await count(
    `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_webhook_inbox WHERE error IS NOT NULL`,
  );
  await pool.end();
  return report({
    ingested,
    backlog: { total: backlog, left, ms: backlogMs, failed },
    cpu: cpuShare(cpuBefore, cpuAfter, groups),
  });
}

function cpuShare(before, after, groups) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const share = (pid) => (after.byGroup[pid] - before.byGroup[pid]) / 100 / seconds;
  const [postgres, platform, bare] = groups;
  return {
    platform: share(platform),
    bare: share(bare),
    postgres: share(postgres),
    other: Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds),
  };
}

async function report({ ingested, backlog, cpu }) {
  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.requests, 0) /
    runs.reduce((sum, run) => sum + run.seconds, 0);
  const p99 = (runs) => Math.max(...runs.map((run) => run.p99));
  const platform = { rate: rate(ingested.platform), p99: p99(ingested.platform) };
  const bare = { rate: rate(ingested.bare), p99: p99(ingested.bare) };
  const ratio = platform.rate / bare.rate;
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      ratio >= GOALS.ratio,
      `webhooks ingested ${Math.round(platform.rate)}/s = ${(ratio * 100).toFixed(1)}% of bare (goal >= ${GOALS.ratio * 100}%)`,
    ],
    [
      platform.rate >= GOALS.ingestedPerSecond,
      `webhooks ingested ${Math.round(platform.rate)}/s (goal >= ${GOALS.ingestedPerSecond}/s)`,
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
    `| signed status webhooks recorded at ${CONNECTIONS} connections | ${Math.round(platform.rate)}/s, p99 ${platform.p99} ms | ${Math.round(bare.rate)}/s, p99 ${bare.p99} ms | ${(ratio * 100).toFixed(1)}% |`,
    `| backlog processed after the rounds | ${backlog.total - backlog.left} of ${backlog.total} webhooks in ${backlog.ms} ms (${backlog.failed} with a note${backlog.left ? `; ${backlog.left} left after ${BACKLOG_WAIT_MS / 1000} s` : ''}) | | |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`, `WHATSAPP_APP_SECRET` set) on one embedded PostgreSQL (fsync on); the number the statuses name connected in the database',
    `- autocannon, ${CONNECTIONS} connections, one signed ${'`'}messages${'`'} webhook with one \`delivered\` status (${statusWebhook().length} bytes); ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; rate over all rounds, p99 the worst round's. A 200 means the inbox row and its job are committed (group commit across concurrent webhooks on the platform's side)`,
    "- Bare: Fastify + `pg` (pool of 10), the raw body kept as a Buffer, the service's own signatureOf and payloadText, then the service's own inbox statement (row + job) per webhook and the NOTIFY; no gateway, no transport, no group commit. Its rows are processed by the platform's workers like the platform's own",
    cpu
      ? `- CPU during the rounds: platform ${cpu.platform.toFixed(2)}, bare ${cpu.bare.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, other processes ${cpu.other.toFixed(2)} CPUs`
      : '- CPU: not measured',
    '',
    '```sh',
    'npm run bench:whatsapp-webhooks              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:whatsapp-webhooks -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('whatsapp-webhooks.bench', main, children, () => tmp);
