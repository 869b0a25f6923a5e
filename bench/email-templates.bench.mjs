#!/usr/bin/env node
// Accepted sends by template against inline sends, in one run on this machine (issue 21's goal:
// template sends at least 80% of inline sends/s). One embedded platform with a verified sending
// domain and a published template; rounds of `POST /v1/email/messages` at 64 connections take
// turns between the two kinds, each round drained (its messages processed and delivered into a
// local SMTP sink) before the next, so no round carries another's backlog. The inline sends carry
// the same subject and HTML the template renders to, so the difference is the template's pin
// (one query) and render.
//
//   npm run bench:email-templates              build, measure, print figures and MEETS / MISSES
//   npm run bench:email-templates -- --write   same, and (re)write its section of RESULTS.md
//   ROUND_S=2 ROUNDS=2 npm run bench:email-templates   a short run
//
// Exit status 0 when the goal is met, 1 otherwise (or when the run fails), 3 inconclusive: other
// processes kept more than BUSY_MACHINE_CPUS busy during the rounds.
import { mkdtemp } from 'node:fs/promises';
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
const HEADING = '## Email sends by template (`npm run bench:email-templates`)';
const write = process.argv.includes('--write');

const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.WARMUP_S ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ROUND_S = Number(process.env.ROUND_S ?? 5);
const DRAIN_TIMEOUT_MS = 300_000;
/** Template sends/s at least this share of inline sends/s. */
const GOAL_SHARE = 0.8;
const BUSY_MACHINE_CPUS = 0.25;
const DOMAIN = 'templates.bench.test';
const SUBJECT = 'Your order {{ order_id }} has shipped';
const HTML =
  '<html><body><h1>Hi {{ name }}</h1><p>Your order <b>{{ order_id }}</b> is on its way.</p>' +
  '{% if note %}<p>{{ note }}</p>{% endif %}<p>Thanks for shopping with us.</p></body></html>';

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

async function setUp(sinkUrl, dns) {
  const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
    children,
    root,
    tmp,
    'templates',
    { SMTP_RELAY_URL: sinkUrl, DNS_SERVERS: dns.address },
  );
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, { name: 'T' });
  const token = created.api_key.secret;
  const answer = await apiCall(base, 'POST', '/v1/email/domains', token, { domain: DOMAIN });
  const registered = answer.dns_records ? answer : answer.domain;
  for (const record of registered.dns_records)
    dns.set(record.host, [
      record.type === 'CNAME'
        ? { type: 'CNAME', domain: record.value }
        : { type: 'TXT', data: record.value },
    ]);
  const verified = await apiCall(base, 'POST', `/v1/email/domains/${registered.id}/verify`, token);
  if ((verified.status ?? verified.domain?.status) !== 'verified')
    throw new Error(`${DOMAIN} not verified`);
  const template = await apiCall(base, 'POST', '/v1/email/templates', token, {
    slug: 'order-shipped',
    category: 'transactional',
    source: 'html',
    languages: { en: { subject: SUBJECT, html: HTML } },
  });
  const submitted = await apiCall(
    base,
    'POST',
    `/v1/email/templates/${template.id}/versions/${template.draft_version_id}/submit`,
    token,
    {},
  );
  if (!submitted.valid) throw new Error(`template not published: ${JSON.stringify(submitted)}`);
  const pg = require('pg');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let next = 0;
  const values = () => ({ name: `Customer ${next}`, order_id: `A-${next++}`, note: '' });
  const from = { email: `hello@${DOMAIN}`, name: 'Bench' };
  const to = () => [`r${next % 1000}@example.com`];
  const kinds = [
    {
      name: 'inline',
      body: () => {
        const v = values();
        return {
          from,
          to: to(),
          category: 'transactional',
          subject: `Your order ${v.order_id} has shipped`,
          html: `<html><body><h1>Hi ${v.name}</h1><p>Your order <b>${v.order_id}</b> is on its way.</p><p>Thanks for shopping with us.</p></body></html>`,
        };
      },
      rounds: [],
    },
    {
      name: 'template',
      body: () => ({ from, to: to(), template: { slug: 'order-shipped', parameters: values() } }),
      rounds: [],
    },
  ];
  return { base, token, db, kinds };
}

/** One round of one kind, then the wait until its messages are processed and delivered. */
async function round(target, kind, seconds) {
  const startedAt = new Date();
  const result = await autocannon({
    url: `${target.base}/v1/email/messages`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(kind.body()) }),
      },
    ],
  });
  if (result.errors || result.timeouts || result.non2xx)
    throw new Error(
      `${kind.name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const { rows } = await target.db.query(
      `SELECT count(*) FILTER (WHERE r.status IN ('accepted', 'processed'))::int AS waiting
       FROM email.recipients r JOIN email.messages m ON m.id = r.message_id
       WHERE m.created_at >= $1`,
      [startedAt],
    );
    if (rows[0].waiting === 0)
      return { accepted: result.requests.total, seconds: result.duration, p99: result.latency.p99 };
    if (Date.now() > deadline) throw new Error(`${kind.name}: round not drained`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-email-templates-'));
  const sink = startNodeChild(children, root, 'SMTP sink', [join(root, 'bench/smtp-sink.mjs')]);
  const [, sinkPort] = await sink.line(/listening at smtp:\/\/127\.0\.0\.1:(\d+)/);
  const { startDnsServer } = require(join(root, 'dist/libs/testing/src/index.js'));
  const dns = await startDnsServer();
  try {
    const target = await setUp(`smtp://127.0.0.1:${sinkPort}`, dns);
    log(
      `email sends, inline and by template: warm-up ${WARMUP_S} s each, then ${ROUNDS} rounds of ${ROUND_S} s per kind at ${CONNECTIONS} connections, each drained ...`,
    );
    for (const kind of target.kinds) await round(target, kind, WARMUP_S);
    const groups = children.map((child) => child.proc.pid);
    const before = await cpuSnapshot(groups);
    for (let n = 0; n < ROUNDS; n++)
      for (const kind of n % 2 ? [...target.kinds].reverse() : target.kinds) {
        const measured = await round(target, kind, ROUND_S);
        kind.rounds.push(measured);
        log(`  ${kind.name}: ${Math.round(measured.accepted / measured.seconds)} accepted/s`);
      }
    const after = await cpuSnapshot(groups);
    await target.db.end();
    return report(target.kinds, othersCpus(before, after));
  } finally {
    await dns.stop();
  }
}

function othersCpus(before, after) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  return (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds;
}

async function report(kinds, others) {
  const sum = (runs, key) => runs.reduce((total, run) => total + run[key], 0);
  const [inline, template] = kinds.map(({ rounds }) => ({
    rate: sum(rounds, 'accepted') / sum(rounds, 'seconds'),
    p99: Math.max(...rounds.map((run) => run.p99)),
  }));
  const share = template.rate / inline.rate;
  const met = share >= GOAL_SHARE;
  const noisy = others !== undefined && others > BUSY_MACHINE_CPUS;
  const section = [
    HEADING,
    '',
    `**Result: ${met ? 'goal met' : 'goal NOT met'}${noisy ? `, INCONCLUSIVE: other processes kept ${others.toFixed(2)} CPUs busy during the rounds` : ''}.**`,
    '',
    `- ${met ? 'MEETS' : 'MISSES'}: template sends ${Math.round(template.rate)}/s against inline sends ${Math.round(inline.rate)}/s: ${(share * 100).toFixed(1)}% (goal: at least ${GOAL_SHARE * 100}%)`,
    '',
    '| measure | inline | by template |',
    '|---|---:|---:|',
    `| accepted sends at ${CONNECTIONS} connections | ${Math.round(inline.rate)}/s, p99 ${inline.p99} ms | ${Math.round(template.rate)}/s, p99 ${template.p99} ms |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, Node ${process.version}`,
    '- One embedded platform (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`) on an embedded PostgreSQL; delivery through `SMTP_RELAY_URL` into a local SMTP sink (`bench/smtp-sink.mjs`)',
    '- A verified sending domain and one published template (a subject and about 200 bytes of HTML with three variables and an `{% if %}`); the inline sends carry the same subject and HTML as the template renders, without Liquid',
    others === undefined
      ? '- Other processes: not measured'
      : `- Other processes during the rounds: ${others.toFixed(2)} CPUs (above ${BUSY_MACHINE_CPUS} the run is inconclusive)`,
    `- autocannon, ${CONNECTIONS} connections, one recipient per message; ${WARMUP_S} s warm-up per kind, then ${ROUNDS} rounds of ${ROUND_S} s, kinds alternating, each round drained (processed and delivered) before the next`,
    '',
    '```sh',
    'npm run bench:email-templates              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:email-templates -- --write   # same, and rewrite this section',
    '```',
  ].join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return noisy ? 3 : met ? 0 : 1;
}

await runBench('email-templates.bench', main, children, () => tmp);
