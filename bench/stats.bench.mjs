#!/usr/bin/env node
// SMS stats from rollups on the embedded default, side by side with a bare Fastify + `pg` route
// counting the message table (`SELECT count(*) ... GROUP BY`, bench/bare-stats.mjs):
//   1. a generator writes --messages SMS (default 1,000,000) with their events for one workspace
//      over 90 days (set-based SQL), and `npm run stats:rebuild`'s code folds them into the
//      rollups with the consumer's own statement;
//   2. `summary` over 30 days, `daily` over 90 days and the widest breakdown (originators, 200
//      of them, limit 200) at 16 connections each, p99 against the goal (< 100 ms, moonshot 20);
//      breakdown answers are kept per rollup version, so the breakdown is also asked afresh, one
//      request at a time over differing windows, and reported beside;
//   3. ingestion: --ingest events (default 60,000) written to the service's outbox as a send
//      writes them, relayed onto the bus and folded by the running stats consumer, while the
//      summary is asked at 16 connections and SMS are sent through the API (200/s, to a local
//      SMSC); the rate the rollups keep up with (goal >= 2,000 events/s while sends run).
//
//   npm run bench:stats                                  the full run
//   npm run bench:stats -- --messages=50000 --duration=3 --ingest=6000   a short check
//   npm run bench:stats -- --write                       and (re)write its section of bench/RESULTS.md
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
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
const { rebuildStats } = require('../dist/apps/sms-whatsapp/src/stats/stats-rebuild.js');
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## SMS stats from rollups (`npm run bench:stats`)';

const options = { messages: 1_000_000, duration: 10, ingest: 60_000, write: false };
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split('=');
  if (key === '--write') options.write = true;
  else if (['--messages', '--duration', '--ingest'].includes(key) && Number(value) > 0)
    options[key.slice(2)] = Math.floor(Number(value));
  else {
    process.stderr.write(`stats.bench: unknown or invalid argument ${arg}\n`);
    process.exit(2);
  }
}
const CONNECTIONS = 16;
/** Sends per second through the API while ingestion is measured, and their originator. */
const SEND_RATE = 200;
const SENDER = 'Bench';
const DAYS = 90;
const ORIGINATORS = 200;
const CHUNK = 100_000;
const GOALS = { p99Ms: 100, moonshotMs: 20, eventsPerSecond: 2000 };

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * `count` messages from `first` on, spread over the last 90 days, with their events (accepted,
 * sent and an outcome; 2 % rejected before any send), in one statement.
 */
const GENERATE = `
  WITH m AS (
    INSERT INTO sms_whatsapp.sms_messages (id, workspace_id, direction, status, from_address,
      to_address, country_code, category, text, segments, encoding, characters, tags, carrier,
      last_error_code, created_at, sent_at, delivered_at, status_at)
    SELECT 'sms_bench' || lpad(g::text, 12, '0'), $1, 'outbound', s.status,
      'Orig' || (g % ${ORIGINATORS}), '+316' || lpad((g % 10000000)::text, 8, '0'),
      (ARRAY['NL','GB','DE','FR','BE','ES','IT','US','BR','IN','ZA','AU','SE','NO','PL'])[1 + g % 15],
      (ARRAY['transactional','marketing','authentication','service'])[1 + g % 4], 'bench', 1,
      'GSM_7BIT', 5, jsonb_build_array(jsonb_build_object('name', 'campaign', 'value', 'c' || (g % 12))),
      CASE WHEN s.status <> 'rejected' THEN 'carrier-' || (g % 6) END,
      CASE WHEN s.status NOT IN ('delivered', 'accepted') THEN 'error_' || (g % 9) END,
      s.created, s.created + interval '800 ms', CASE WHEN s.status = 'delivered' THEN s.created + interval '4 s' END,
      s.created + interval '4 s'
    FROM (
      SELECT g, now() - random() * interval '${DAYS} days' AS created,
        CASE WHEN r < 0.85 THEN 'delivered' WHEN r < 0.92 THEN 'undelivered'
          WHEN r < 0.96 THEN 'failed' WHEN r < 0.98 THEN 'expired' ELSE 'rejected' END AS status
      FROM (SELECT g, random() AS r FROM generate_series($2::bigint, $3::bigint) g) x
    ) s
    RETURNING id, status, created_at, sent_at, status_at
  )
  INSERT INTO sms_whatsapp.sms_message_events (id, message_id, workspace_id, type, occurred_at)
  SELECT 'ev_' || m.id || '_' || e.type, m.id, $1, e.type, e.at
  FROM m CROSS JOIN LATERAL (VALUES
    (CASE WHEN m.status <> 'rejected' THEN 'sms.accepted' END, m.created_at),
    (CASE WHEN m.status IN ('delivered', 'undelivered', 'expired') THEN 'sms.sent' END, m.sent_at),
    ('sms.' || m.status, m.status_at)
  ) AS e (type, at)
  WHERE e.type IS NOT NULL`;

async function load(name, url, headers) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: options.duration,
    headers,
  });
  // A bare query slower than autocannon's 10 s time-out is a figure of the bare side (the full
  // scan it stands for), not a failed run; anything else failing is.
  const bareTimeouts = name.startsWith('bare') ? result.timeouts : 0;
  if (result.errors - bareTimeouts || result.non2xx)
    throw new Error(
      `${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  if (bareTimeouts)
    return { rate: result.requests.average, p99: `> 10,000 (${bareTimeouts} timed out)`, p50: '-' };
  return { rate: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

/**
 * Waits until PostgreSQL runs nothing but this client: the bare side's scans outlive autocannon's
 * time-out (the server's query goes on after the client gave up), and would otherwise run under
 * the next measured question.
 */
async function settled(db, after) {
  const started = Date.now();
  for (;;) {
    const { busy } = (
      await db.query(
        `SELECT count(*)::int AS busy FROM pg_stat_activity
         WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      )
    ).rows[0];
    if (busy === 0) break;
    if (Date.now() - started > 300_000)
      throw new Error(`PostgreSQL still busy 300 s after ${after}`);
    await new Promise((done) => setTimeout(done, 250));
  }
  const waited = Date.now() - started;
  if (waited > 500) log(`  waited ${(waited / 1000).toFixed(1)} s for ${after}'s queries to end`);
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-stats-'));
  // The SMSC the sends made during ingestion reach (bench/smsc.mjs, the test SMSC in its own process).
  const smsc = startNodeChild(children, root, 'SMSC', [join(root, 'bench/smsc.mjs')]);
  const [, smscUrl] = await smsc.line(/\{"platform":"([^"]+)","bare":"([^"]+)"\}/);
  const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'stats',
    {
      RATE_LIMITS: 'read=1000000000,sms_send=1000000000',
      SMPP_URL: `${smscUrl}?window=10&tps=100000`,
    },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const workspaceId = created.workspace.id;
  const token = created.api_key.secret;
  await apiCall(base, 'POST', `/admin/v1/workspaces/${workspaceId}/sms-senders`, adminToken, {
    sender: SENDER,
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  // A failed run stops PostgreSQL under it: its goodbye is not an error of the run.
  db.on('error', () => undefined);
  const runner = { query: async (sql, params) => (await db.query(sql, params)).rows };
  const begin = async (work) => {
    await db.query('BEGIN');
    try {
      const result = await work(runner);
      await db.query('COMMIT');
      return result;
    } catch (err) {
      await db.query('ROLLBACK');
      throw err;
    }
  };

  log(`generating ${options.messages} messages with their events over ${DAYS} days ...`);
  let started = Date.now();
  for (let first = 1; first <= options.messages; first += CHUNK)
    await db.query(GENERATE, [workspaceId, first, Math.min(options.messages, first + CHUNK - 1)]);
  // Bulk-loaded in one go: settled now rather than by autovacuum under the measured queries.
  await db.query('VACUUM (ANALYZE) sms_whatsapp.sms_messages');
  await db.query('VACUUM (ANALYZE) sms_whatsapp.sms_message_events');
  const generatedS = (Date.now() - started) / 1000;
  log(`  ${generatedS.toFixed(1)} s; folding them into the rollups (the rebuild) ...`);
  started = Date.now();
  const rebuilt = await rebuildStats(runner, begin, {
    channel: 'sms',
    onProgress: () => undefined,
  });
  const rebuildS = (Date.now() - started) / 1000;
  log(
    `  ${rebuilt.total} events folded in ${rebuildS.toFixed(1)} s (${Math.round(rebuilt.total / rebuildS)}/s)`,
  );

  const bare = startNodeChild(
    children,
    root,
    'bare-stats',
    [join(root, 'bench/bare-stats.mjs'), '0'],
    {
      DATABASE_URL: databaseUrl,
      BENCH_WORKSPACE_ID: workspaceId,
    },
  );
  const [, bareBase] = await bare.line(/bare-stats listening at (http:\/\/127\.0\.0\.1:\d+)/);
  assertLoopback(bareBase);
  const auth = { authorization: `Bearer ${token}` };
  const utc = (from, to) => `from=${from}T00:00:00Z&to=${to}T00:00:00Z`;
  const questions = [
    [
      'summary, 30 days',
      `/v1/sms/stats/summary?from=${day(-29)}&to=${day(0)}`,
      `/summary?${utc(day(-29), day(1))}`,
    ],
    [
      'daily, 90 days',
      `/v1/sms/stats/daily?from=${day(-89)}&to=${day(0)}`,
      `/daily?${utc(day(-89), day(1))}`,
    ],
    [
      `originators (${ORIGINATORS}), 30 days`,
      `/v1/sms/stats/originators?from=${day(-29)}&to=${day(0)}&limit=200`,
      `/originators?${utc(day(-29), day(1))}`,
    ],
  ];
  const measured = [];
  for (const [name, path, barePath] of questions) {
    log(`${name}: ${options.duration} s each side at ${CONNECTIONS} connections ...`);
    await load(name, `${base}${path}`, auth);
    const platform = await load(name, `${base}${path}`, auth);
    const bareRun = await load(`bare ${name}`, `${bareBase}${barePath}`, {});
    measured.push({ name, platform, bare: bareRun });
    await settled(db, `bare ${name}`);
  }

  // Answers are kept per rollup version (ADR 18): the loaded runs above mostly share them. These
  // ask 30-day windows that differ, one at a time, so each is computed from the rollups.
  const cold = [];
  for (let i = 1; i <= 12; i++) {
    const started = Date.now();
    const path = `/v1/sms/stats/originators?from=${day(-29 - i)}&to=${day(-i)}&limit=200`;
    await apiCall(base, 'GET', path, token);
    cold.push(Date.now() - started);
  }
  cold.sort((a, b) => a - b);
  const coldBreakdown = { p50: cold[Math.floor(cold.length / 2)], max: cold[cold.length - 1] };
  log(
    `originators afresh, one at a time: p50 ${coldBreakdown.p50} ms, max ${coldBreakdown.max} ms`,
  );

  log(
    `ingestion: ${options.ingest} events through the outbox, the bus and the stats consumer, under query load and sends ...`,
  );
  const ingest = await ingestion(db, base, workspaceId, auth);
  await db.end();
  return report(measured, { generatedS, rebuildS, rebuilt, ingest, coldBreakdown });
}

/**
 * Writes `count` events (accepted, sent, delivered of count/3 new messages) to the outbox in
 * batches as sends would, and measures until the rollups hold them all, while the summary is
 * asked at 16 connections meanwhile.
 */
async function ingestion(db, base, workspaceId, auth) {
  const messages = Math.ceil(options.ingest / 3);
  const offset = options.messages + 1;
  await db.query(
    `INSERT INTO sms_whatsapp.sms_messages (id, workspace_id, direction, status, from_address,
       to_address, country_code, category, text, segments, encoding, characters, tags, carrier,
       created_at, sent_at, delivered_at, status_at)
     SELECT 'sms_bench' || lpad(g::text, 12, '0'), $1, 'outbound', 'delivered', 'Orig' || (g % 200),
       '+31612345678', 'NL', 'service', 'bench', 1, 'GSM_7BIT', 5, '[]', 'carrier-1', now(),
       now() + interval '1 s', now() + interval '3 s', now() + interval '3 s'
     FROM generate_series($2::bigint, $3::bigint) g`,
    [workspaceId, offset, offset + messages - 1],
  );
  // The ingested events' own figures: the sends made meanwhile (originator SENDER) add theirs.
  const ingested = async () =>
    (
      await db.query(
        `SELECT coalesce(sum(accepted + sent + delivered), 0)::int AS n FROM sms_whatsapp.sms_stats_rollups
         WHERE workspace_id = $1 AND dimension = 'originator' AND value <> $2`,
        [workspaceId, SENDER],
      )
    ).rows[0].n;
  const before = await ingested();
  const queries = autocannon({
    url: `${base}/v1/sms/stats/summary?from=${day(-29)}&to=${day(0)}`,
    connections: CONNECTIONS,
    duration: 600,
    headers: auth,
  });
  const sendBody = {
    to: '+31612345678',
    from: SENDER,
    text: 'Your order has shipped.',
    category: 'transactional',
  };
  // One send answered 202 before the load, or the reason it is not.
  await apiCall(
    base,
    'POST',
    '/v1/sms/messages',
    auth.authorization.slice('Bearer '.length),
    sendBody,
  );
  const sends = autocannon({
    url: `${base}/v1/sms/messages`,
    method: 'POST',
    connections: 8,
    overallRate: SEND_RATE,
    duration: 600,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(sendBody),
  });
  const started = Date.now();
  const perBatch = 3000;
  for (let first = 0; first < messages; first += perBatch / 3) {
    await db.query(
      `INSERT INTO sms_whatsapp.outbox (id, type, workspace_id, payload)
       SELECT 'ev_ingest_' || g || '_' || t.type, t.type, $1, jsonb_build_object('type', t.type,
         'timestamp', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', jsonb_build_object('sms_id', 'sms_bench' || lpad(g::text, 12, '0')))
       FROM generate_series($2::bigint, $3::bigint) g
       CROSS JOIN (VALUES ('sms.accepted', 1), ('sms.sent', 2), ('sms.delivered', 3)) AS t (type, n)
       ORDER BY g, t.n`,
      [
        workspaceId,
        offset + first,
        Math.min(offset + messages - 1, offset + first + perBatch / 3 - 1),
      ],
    );
    await db.query('NOTIFY sms_whatsapp_outbox');
  }
  const written = (Date.now() - started) / 1000;
  const expected = before + messages * 3;
  for (;;) {
    const n = await ingested();
    if (n >= expected) break;
    if (Date.now() - started > 600_000)
      throw new Error(`ingestion: ${n - before} of ${messages * 3} events folded after 600 s`);
    await new Promise((done) => setTimeout(done, 50));
  }
  const seconds = (Date.now() - started) / 1000;
  queries.stop();
  sends.stop();
  const [underLoad, sent] = await Promise.all([queries, sends]);
  if (sent.errors || sent.non2xx)
    throw new Error(`ingestion sends: ${sent.errors} errors, ${sent.non2xx} non-2xx`);
  return {
    events: messages * 3,
    seconds,
    writtenS: written,
    rate: (messages * 3) / seconds,
    queryP99: underLoad.latency.p99,
    sendsPerSecond: sent.requests.total / sent.duration,
    sendP99: sent.latency.p99,
  };
}

async function report(measured, { generatedS, rebuildS, rebuilt, ingest, coldBreakdown }) {
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    ...measured.map(({ name, platform }) => [
      platform.p99 < GOALS.p99Ms,
      `${name}: p99 ${platform.p99} ms (goal < ${GOALS.p99Ms} ms${platform.p99 < GOALS.moonshotMs ? ', moonshot met' : `, moonshot ${GOALS.moonshotMs} ms`})`,
    ]),
    [
      ingest.rate >= GOALS.eventsPerSecond,
      `ingestion ${Math.round(ingest.rate)} events/s through outbox, bus and consumer (goal >= ${GOALS.eventsPerSecond}/s while sends run)`,
    ],
  ];
  const met = goals.every(([ok]) => ok);
  const lines = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}** (${options.messages} messages over ${DAYS} days${options.messages < 1_000_000 ? ': a smaller run than the standard 1,000,000' : ''}).`,
    '',
    ...goals.map(([ok, text]) => `- ${verdict(ok)}: ${text}`),
    '',
    `| question | rollups (Switchboard) | bare count(*) over the message table |`,
    '|---|---:|---:|',
    ...measured.map(
      ({ name, platform, bare }) =>
        `| ${name} | ${Math.round(platform.rate)}/s, p50 ${platform.p50} ms, p99 ${platform.p99} ms | ${Math.round(bare.rate)}/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms |`,
    ),
    '',
    `- Breakdown answers are kept per rollup version (ADR 18), so loaded runs share computations between folds; the widest breakdown computed afresh (12 different 30-day windows, one at a time): p50 ${coldBreakdown.p50} ms, max ${coldBreakdown.max} ms.`,
    `- Generated in ${generatedS.toFixed(1)} s; the rebuild folded ${rebuilt.total} events in ${rebuildS.toFixed(1)} s (${Math.round(rebuilt.total / rebuildS)}/s).`,
    `- Ingestion: ${ingest.events} events written to the outbox in ${ingest.writtenS.toFixed(1)} s, all in the rollups after ${ingest.seconds.toFixed(1)} s; meanwhile the 30-day summary was asked at ${CONNECTIONS} connections (p99 ${ingest.queryP99} ms) and SMS were sent through the API to a local SMSC at ${Math.round(ingest.sendsPerSecond)}/s (offered ${SEND_RATE}/s, p99 ${ingest.sendP99} ms), their own events folded alongside.`,
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, Node ${process.version}; ${options.duration} s per side, autocannon at ${CONNECTIONS} connections.`,
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (options.write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('stats.bench', main, children, () => tmp);
