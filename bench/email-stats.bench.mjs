#!/usr/bin/env node
// Email stats from rollups on the embedded default (the email case of `npm run bench:stats`):
//   1. a generator writes --messages email messages (default 1,000,000), one recipient each, with
//      their timeline (accepted, processed, delivered or bounced; opens and clicks on a share)
//      for one workspace over 90 days (set-based SQL), and `npm run stats:rebuild -- --channel
//      email`'s code folds them into the rollups with the consumer's own statement;
//   2. `summary` over 30 days, `daily` over 90 days and the widest breakdown (recipient domains,
//      200 of them, limit 200) at 16 connections each, p99 against the goal (< 100 ms);
//   3. ingestion: --ingest events (default 60,000) written to the email outbox as sends write
//      them, relayed onto the bus and folded by the running consumer while the summary is asked;
//      the rate the rollups keep up with (goal >= 2,000 events/s).
//
//   npm run bench:email-stats                                   the full run
//   npm run bench:email-stats -- --messages=50000 --duration=3 --ingest=6000   a short check
//   npm run bench:email-stats -- --write                        and (re)write its RESULTS.md section
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { apiCall, runBench, startPlatformOnPostgres, writeResultsSection } from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { rebuildEmailStats } = require('../dist/apps/email/src/stats/email-stats-rebuild.js');
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Email stats from rollups (`npm run bench:email-stats`)';

const options = { messages: 1_000_000, duration: 10, ingest: 60_000, write: false };
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split('=');
  if (key === '--write') options.write = true;
  else if (['--messages', '--duration', '--ingest'].includes(key) && Number(value) > 0)
    options[key.slice(2)] = Math.floor(Number(value));
  else {
    process.stderr.write(`email-stats.bench: unknown or invalid argument ${arg}\n`);
    process.exit(2);
  }
}
const CONNECTIONS = 16;
const DAYS = 90;
const DOMAINS = 200;
const CHUNK = 100_000;
const GOALS = { p99Ms: 100, eventsPerSecond: 2000 };

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Messages `$2..$3` with one recipient each, as accepted sends store them. */
const MESSAGES = (created) => `
  WITH m AS (
    INSERT INTO email.messages (id, workspace_id, from_email, sender_domain, onboarding,
      to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags,
      headers, attachments, track_opens, track_clicks, created_at, processed_at)
    SELECT 'em_bench' || lpad(g::text, 12, '0'), $1, 'news@bench.test', 'bench.test', false,
      '[]', '[]', '[]', '[]', 'bench', (ARRAY['marketing', 'transactional'])[1 + g % 2],
      'delivered', jsonb_build_array(jsonb_build_object('name', 'campaign', 'value', 'c' || (g % 12))),
      '{}', '[]', true, true, ${created}, ${created} + interval '1 s'
    FROM generate_series($2::bigint, $3::bigint) g
    RETURNING id, created_at
  )
  INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, allowed,
    status, processed_at)
  SELECT 'rcp' || substr(m.id, 3), m.id, $1, 0, 'to',
    'r' || substr(m.id, 9) || '@d' || (substr(m.id, 9)::bigint % ${DOMAINS}) || '.example', true,
    'delivered', m.created_at + interval '1 s'
  FROM m`;

/** The timeline of messages `$2..$3`: 95 % delivered (40 % of them opened, 10 % clicked). */
const TIMELINE = `
  INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at, detail)
  SELECT 'ev_' || m.id || '_' || e.type, m.id, $1, 'rcp' || substr(m.id, 3), e.type, e.at, e.detail
  FROM email.messages m
  CROSS JOIN LATERAL (SELECT substr(m.id, 9)::bigint AS g) n
  CROSS JOIN LATERAL (VALUES
    ('email.accepted', m.created_at, '{}'::jsonb),
    ('email.processed', m.created_at + interval '1 s', '{}'),
    (CASE WHEN n.g % 20 = 0 THEN 'email.bounced' ELSE 'email.delivered' END,
      m.created_at + interval '3 s',
      CASE WHEN n.g % 20 = 0 THEN '{"bounce_type": "hard", "bounce_code": "550"}'::jsonb ELSE '{}' END),
    (CASE WHEN n.g % 20 <> 0 AND n.g % 5 < 2 THEN 'email.opened' END,
      m.created_at + interval '1 hour', '{"is_prefetched": false}'),
    (CASE WHEN n.g % 20 <> 0 AND n.g % 10 = 1 THEN 'email.clicked' END,
      m.created_at + interval '2 hours', '{}')
  ) AS e (type, at, detail)
  WHERE m.workspace_id = $1 AND m.id BETWEEN 'em_bench' || lpad($2::text, 12, '0')
    AND 'em_bench' || lpad($3::text, 12, '0') AND e.type IS NOT NULL`;

async function load(name, url, headers, duration = options.duration) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  return { rate: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-email-stats-'));
  const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'email-stats',
    { RATE_LIMITS: 'read=1000000000' },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const workspaceId = created.workspace.id;
  const auth = { authorization: `Bearer ${created.api_key.secret}` };
  const db = new pg.Client({ connectionString: databaseUrl });
  // A failed run stops PostgreSQL under this client: that is reported by the run, not thrown here.
  db.on('error', () => undefined);
  await db.connect();
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

  log(`generating ${options.messages} messages with their timeline over ${DAYS} days ...`);
  let started = Date.now();
  for (let first = 1; first <= options.messages; first += CHUNK) {
    const range = [workspaceId, first, Math.min(options.messages, first + CHUNK - 1)];
    await db.query(MESSAGES(`now() - random() * interval '${DAYS} days'`), range);
    await db.query(TIMELINE, range);
  }
  await db.query('ANALYZE email.messages; ANALYZE email.recipients; ANALYZE email.events');
  const generatedS = (Date.now() - started) / 1000;
  log(`  ${generatedS.toFixed(1)} s; folding them into the rollups (the rebuild) ...`);
  started = Date.now();
  const rebuilt = await rebuildEmailStats(runner, begin, { onProgress: () => undefined });
  const rebuildS = (Date.now() - started) / 1000;
  await db.query('VACUUM ANALYZE email.email_stats_rollups');
  await db.query('VACUUM ANALYZE email.email_stats_daily_rollups');
  log(
    `  ${rebuilt.total} events folded in ${rebuildS.toFixed(1)} s (${Math.round(rebuilt.total / rebuildS)}/s)`,
  );

  const questions = [
    ['summary, 30 days', `/v1/email/stats/summary?from=${day(-29)}&to=${day(0)}`],
    ['daily, 90 days', `/v1/email/stats/daily?from=${day(-89)}&to=${day(0)}`],
    [
      `recipient domains (${DOMAINS}), 30 days`,
      `/v1/email/stats/recipient-domains?from=${day(-29)}&to=${day(0)}&limit=200`,
    ],
  ];
  const measured = [];
  for (const [name, path] of questions) {
    log(`${name}: ${options.duration} s at ${CONNECTIONS} connections ...`);
    await load(name, `${base}${path}`, auth, 1);
    measured.push({ name, platform: await load(name, `${base}${path}`, auth) });
  }

  log(`ingestion: ${options.ingest} events through the outbox, the bus and the consumer ...`);
  const ingest = await ingestion(db, base, workspaceId, auth);
  await db.end();
  return report(measured, { generatedS, rebuildS, rebuilt, ingest });
}

/** `count` events (accepted, processed, delivered of count/3 new messages) through the outbox. */
async function ingestion(db, base, workspaceId, auth) {
  const messages = Math.ceil(options.ingest / 3);
  const offset = options.messages + 1;
  await db.query(MESSAGES('now()'), [workspaceId, offset, offset + messages - 1]);
  const counted = async () =>
    (
      await db.query(
        `SELECT coalesce(sum(accepted + processed + delivered), 0)::int AS n
         FROM email.email_stats_rollups WHERE workspace_id = $1 AND dimension = ''`,
        [workspaceId],
      )
    ).rows[0].n;
  const before = await counted();
  const queries = autocannon({
    url: `${base}/v1/email/stats/summary?from=${day(-29)}&to=${day(0)}`,
    connections: CONNECTIONS,
    duration: 600,
    headers: auth,
  });
  const started = Date.now();
  const perBatch = 3000;
  for (let first = 0; first < messages; first += perBatch / 3) {
    await db.query(
      `INSERT INTO email.outbox (id, type, workspace_id, payload)
       SELECT 'ev_ingest_' || g || '_' || t.type, t.type, $1, jsonb_build_object('type', t.type,
         'timestamp', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', jsonb_build_object('email_id', 'em_bench' || lpad(g::text, 12, '0'),
           'recipient_id', 'rcp_bench' || lpad(g::text, 12, '0')))
       FROM generate_series($2::bigint, $3::bigint) g
       CROSS JOIN (VALUES ('email.accepted', 1), ('email.processed', 2), ('email.delivered', 3)) AS t (type, n)
       ORDER BY g, t.n`,
      [
        workspaceId,
        offset + first,
        Math.min(offset + messages - 1, offset + first + perBatch / 3 - 1),
      ],
    );
    await db.query('NOTIFY email_outbox');
  }
  const written = (Date.now() - started) / 1000;
  const expected = before + messages * 3;
  for (;;) {
    const n = await counted();
    if (n >= expected) break;
    if (Date.now() - started > 600_000)
      throw new Error(`ingestion: ${n - before} of ${messages * 3} events folded after 600 s`);
    await new Promise((done) => setTimeout(done, 50));
  }
  const seconds = (Date.now() - started) / 1000;
  queries.stop();
  const underLoad = await queries;
  return {
    events: messages * 3,
    seconds,
    writtenS: written,
    rate: (messages * 3) / seconds,
    queryP99: underLoad.latency.p99,
  };
}

async function report(measured, { generatedS, rebuildS, rebuilt, ingest }) {
  const goals = [
    ...measured.map(({ name, platform }) => [
      platform.p99 < GOALS.p99Ms,
      `${name}: ${Math.round(platform.rate)}/s, p50 ${platform.p50} ms, p99 ${platform.p99} ms (goal < ${GOALS.p99Ms} ms)`,
    ]),
    [
      ingest.rate >= GOALS.eventsPerSecond,
      `ingestion ${Math.round(ingest.rate)} events/s through outbox, bus and consumer (goal >= ${GOALS.eventsPerSecond}/s)`,
    ],
  ];
  const met = goals.every(([ok]) => ok);
  const section = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}** (${options.messages} messages over ${DAYS} days${options.messages < 1_000_000 ? ': a smaller run than the standard 1,000,000' : ''}).`,
    '',
    ...goals.map(([ok, text]) => `- ${ok ? 'MEETS' : 'MISSES'}: ${text}`),
    '',
    `- Generated in ${generatedS.toFixed(1)} s; the rebuild folded ${rebuilt.total} events in ${rebuildS.toFixed(1)} s (${Math.round(rebuilt.total / rebuildS)}/s).`,
    `- Ingestion: ${ingest.events} events written to the outbox in ${ingest.writtenS.toFixed(1)} s, all in the rollups after ${ingest.seconds.toFixed(1)} s; the 30-day summary asked meanwhile at ${CONNECTIONS} connections had p99 ${ingest.queryP99} ms.`,
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, Node ${process.version}; ${options.duration} s per question, autocannon at ${CONNECTIONS} connections.`,
  ].join('\n');
  log(`\n${section}\n`);
  if (options.write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('email-stats.bench', main, children, () => tmp);
