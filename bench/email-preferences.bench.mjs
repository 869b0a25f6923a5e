#!/usr/bin/env node
// Email sends with preference enforcement on against the same without it (ADR 14), in one run on
// this machine: two embedded platforms, each on its own PostgreSQL, identical but for
// PREFERENCES_ENFORCEMENT (true / false, the measuring aid ADR 14 documents), each with a verified
// sending domain and the same 100,000 statements in `email.preference_states`, 10% of the
// recipients among them. They take turns: `POST /v1/email/messages` at 64 connections for a round
// (accepted/s), then the round's messages are waited for until processed and delivered into a
// local SMTP sink (processed/s: the round's messages over the time from the round's start to the
// last one's processing), so no round carries the previous one's backlog.
//
// The sends are `transactional` and the recipients' statements revoked `non_transactional`: the
// check reads and decides every one, and lets it through, so both sides do the same delivery work
// and the difference is the check alone.
//
//   npm run bench:email-preferences              build, measure, print figures and MEETS / MISSES
//   npm run bench:email-preferences -- --write   same, and (re)write its section of RESULTS.md
//   ROUND_S=2 ROUNDS=2 npm run bench:email-preferences   a short run
//
// Exit status 0 when the goal is met, 1 otherwise (or when the run fails), 3 inconclusive: other
// processes kept more than BUSY_MACHINE_CPUS busy during the rounds.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  apiCall,
  cpuSnapshot,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Email sends with preference enforcement (`npm run bench:email-preferences`)';
const write = process.argv.includes('--write');

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ROUND_S = Number(process.env.ROUND_S ?? 5);
const STATEMENTS = 100_000;
/** Recipients the sends cycle through; every tenth has a revoked statement. */
const RECIPIENTS = 1_000;
const DRAIN_TIMEOUT_MS = 300_000;
/** At most this much lower with enforcement on than off. */
const GOAL_LOSS = 0.1;
/** CPUs' worth of work by other processes that makes a run too noisy to compare the sides. */
const BUSY_MACHINE_CPUS = 0.25;

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

/** A platform with its workspace, verified domain and seeded projection. */
async function side(name, enforcement, sinkUrl, dns) {
  const domain = `${name}.bench.test`;
  const dir = join(tmp, name);
  await mkdir(dir);
  const { base, adminToken, databaseUrl, platform } = await startPlatformOnPostgres(
    children,
    root,
    dir,
    `prefs-${name}`,
    { SMTP_RELAY_URL: sinkUrl, DNS_SERVERS: dns.address, PREFERENCES_ENFORCEMENT: enforcement },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, { name });
  const token = created.api_key.secret;
  const answer = await apiCall(base, 'POST', '/v1/email/domains', token, { domain });
  const registered = answer.dns_records ? answer : answer.domain;
  for (const record of registered.dns_records)
    dns.set(record.host, [
      record.type === 'CNAME'
        ? { type: 'CNAME', domain: record.value }
        : { type: 'TXT', data: record.value },
    ]);
  const verified = await apiCall(base, 'POST', `/v1/email/domains/${registered.id}/verify`, token);
  if ((verified.status ?? verified.domain?.status) !== 'verified')
    throw new Error(`${domain} not verified`);
  const pg = require('pg');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  // The projection as the ledger's events leave it: STATEMENTS keys, RECIPIENTS / 10 of them
  // the recipients' (revoked non_transactional), the rest other handles, granted or revoked.
  await db.query(
    `INSERT INTO email.preference_states
       (workspace_id, channel, handle, sender_scope, status, coverage, effective_at, transition_id)
     SELECT $1, 'email',
       CASE WHEN n < $3 THEN 'r' || (n * 10) || '@example.com' ELSE 'p' || n || '@elsewhere.test' END,
       '', CASE WHEN n < $3 OR n % 3 = 0 THEN 'revoked' ELSE 'granted' END,
       CASE WHEN n % 7 = 0 AND n >= $3 THEN 'all' ELSE 'non_transactional' END,
       now() - interval '1 day', 'prt_bench' || lpad(n::text, 8, '0')
     FROM generate_series(0, $2 - 1) AS n`,
    [created.workspace.id, STATEMENTS, RECIPIENTS / 10],
  );
  await db.query('ANALYZE email.preference_states');
  let next = 0;
  const body = () => ({
    from: { email: `hello@${domain}`, name: 'Bench' },
    to: [`r${next++ % RECIPIENTS}@example.com`],
    subject: 'Your receipt',
    text: 'Thank you for your order.',
    category: 'transactional',
  });
  return { name, base, token, db, platform, body, rounds: [] };
}

/** One round: sends for ROUND_S, then the wait until its messages are processed and delivered. */
async function round(target, seconds) {
  const startedAt = new Date();
  const result = await autocannon({
    url: `${target.base}/v1/email/messages`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${target.token}`,
          'content-type': 'application/json',
        },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(target.body()) }),
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${target.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const { rows } = await target.db.query(
      `SELECT count(*)::int AS messages, count(*) FILTER (WHERE processed_at IS NULL)::int AS waiting,
         extract(epoch FROM max(processed_at)) * 1000 AS last_ms,
         (SELECT count(*)::int FROM email.recipients r JOIN email.messages m ON m.id = r.message_id
          WHERE m.created_at >= $1 AND r.status IN ('accepted', 'processed')) AS undelivered
       FROM email.messages WHERE created_at >= $1`,
      [startedAt],
    );
    const [state] = rows;
    if (state.waiting === 0 && state.undelivered === 0)
      return {
        accepted: result.requests.total,
        seconds: result.duration,
        p99: result.latency.p99,
        processed: state.messages,
        processingSeconds: (Number(state.last_ms) - startedAt.getTime()) / 1000,
      };
    if (Date.now() > deadline)
      throw new Error(`${target.name}: round not drained ${JSON.stringify(state)}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-email-preferences-'));
  const sink = startNodeChild(children, root, 'SMTP sink', [join(root, 'bench/smtp-sink.mjs')]);
  const [, sinkPort] = await sink.line(/listening at smtp:\/\/127\.0\.0\.1:(\d+)/);
  const { startDnsServer } = require(join(root, 'dist/libs/testing/src/index.js'));
  const dns = await startDnsServer();
  try {
    const sinkUrl = `smtp://127.0.0.1:${sinkPort}`;
    const sides = [
      await side('with', 'true', sinkUrl, dns),
      await side('without', 'false', sinkUrl, dns),
    ];
    log(
      `email sends, enforcement on and off: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per side at ${CONNECTIONS} connections, each drained ...`,
    );
    for (const target of sides) await round(target, WARMUP_S);
    const groups = children.map((child) => child.proc.pid);
    const before = await cpuSnapshot(groups);
    for (let n = 0; n < ROUNDS; n++)
      for (const target of n % 2 ? [...sides].reverse() : sides) {
        const measured = await round(target, ROUND_S);
        target.rounds.push(measured);
        log(
          `  ${target.name}: ${Math.round(measured.accepted / measured.seconds)} accepted/s, ${Math.round(measured.processed / measured.processingSeconds)} processed/s`,
        );
      }
    const after = await cpuSnapshot(groups);
    for (const target of sides) await target.db.end();
    return report(sides, othersCpus(before, after));
  } finally {
    await dns.stop();
  }
}

/** CPUs' worth of work done during the rounds by processes other than the bench and its children. */
function othersCpus(before, after) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  return (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds;
}

async function report(sides, others) {
  const sum = (runs, key) => runs.reduce((total, run) => total + run[key], 0);
  const figures = Object.fromEntries(
    sides.map(({ name, rounds }) => [
      name,
      {
        accepted: sum(rounds, 'accepted') / sum(rounds, 'seconds'),
        p99: Math.max(...rounds.map((run) => run.p99)),
        processed: sum(rounds, 'processed') / sum(rounds, 'processingSeconds'),
      },
    ]),
  );
  const { with: on, without: off } = figures;
  const loss = (a, b) => 1 - a / b;
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [loss(on.accepted, off.accepted) <= GOAL_LOSS, 'accepted', 'accepted/s'],
    [loss(on.processed, off.processed) <= GOAL_LOSS, 'processed', 'processed/s'],
  ].map(([ok, key, unit]) => {
    const lower = loss(on[key], off[key]);
    const change = `${(Math.abs(lower) * 100).toFixed(1)}% ${lower >= 0 ? 'lower' : 'higher'}`;
    return [
      ok,
      `${unit} with enforcement ${Math.round(on[key])} against ${Math.round(off[key])} without: ${change} (goal: at most ${GOAL_LOSS * 100}% lower)`,
    ];
  });
  const met = goals.every(([ok]) => ok);
  const noisy = others !== undefined && others > BUSY_MACHINE_CPUS;
  const section = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}${noisy ? `, INCONCLUSIVE: other processes kept ${others.toFixed(2)} CPUs busy during the rounds` : ''}.**`,
    '',
    ...goals.map(([ok, text]) => `- ${verdict(ok)}: ${text}`),
    '',
    '| measure | enforcement on | enforcement off | on / off |',
    '|---|---:|---:|---:|',
    `| accepted sends at ${CONNECTIONS} connections | ${Math.round(on.accepted)}/s, p99 ${on.p99} ms | ${Math.round(off.accepted)}/s, p99 ${off.p99} ms | ${((on.accepted / off.accepted) * 100).toFixed(1)}% |`,
    `| processed (round start to last processed) | ${Math.round(on.processed)}/s | ${Math.round(off.processed)}/s | ${((on.processed / off.processed) * 100).toFixed(1)}% |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    `- Two embedded platforms (\`node dist/apps/standalone/src/main.js\`, \`LOG_LEVEL=warn\`, \`RATE_LIMITS=off\`), each on its own embedded PostgreSQL, identical but for \`PREFERENCES_ENFORCEMENT\` (ADR 14's measuring aid); delivery through \`SMTP_RELAY_URL\` into one local SMTP sink (\`bench/smtp-sink.mjs\`)`,
    `- Each: a verified sending domain, ${STATEMENTS.toLocaleString('en')} rows in \`email.preference_states\` (seeded with SQL as the ledger's events would leave them); the sends cycle through ${RECIPIENTS} recipients, every tenth with a revoked \`non_transactional\` statement, and are \`transactional\`: each is read and decided, none stopped, so both sides deliver the same mail`,
    others === undefined
      ? '- Other processes: not measured'
      : `- Other processes during the rounds: ${others.toFixed(2)} CPUs (above ${BUSY_MACHINE_CPUS} the run is inconclusive)`,
    `- Answered: autocannon, ${CONNECTIONS} connections, one recipient per message; ${WARMUP_S} s warm-up per side, then ${ROUNDS} rounds of ${ROUND_S} s, sides alternating; after each round its messages are waited for until processed and delivered. Processed/s: the round's messages over the time from the round's start to the last one's \`processed_at\`, summed over the rounds`,
    '',
    '```sh',
    'npm run bench:email-preferences              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:email-preferences -- --write   # same, and rewrite this section',
    '```',
  ].join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return noisy ? 3 : met ? 0 : 1;
}

await runBench('email-preferences.bench', main, children, () => tmp);
