#!/usr/bin/env node
// An email broadcast to a 10,000-contact audience on the embedded default, against the same
// number of single sends in the same run: one platform on its own PostgreSQL, a verified sending
// domain, a template published through the templates API, the contacts
// created in bulk through the API (`POST /v1/contacts/batch`, 1,000 at a time, into one
// audience), delivery through SMTP_RELAY_URL into a local SMTP sink (bench/smtp-sink.mjs).
//   1. single sends: the same number of messages, one per contact, through `POST /v1/email/batches`
//      (100 per request, two in flight): delivered per second, first accept to the sink's last;
//   2. the broadcast: `POST /v1/email/broadcasts` with `send: true`; the time from that request to
//      every message queued (one message per contact written, the preparation done) and the
//      messages delivered into the sink per second (the request to the sink's last message).
// Goals (issue 21): queued in under 5 s; delivered at 300/s or more, as single sends.
//
//   npm run bench:broadcast                   build, measure, print the figures and MEETS / MISSES
//   npm run bench:broadcast -- --write        same, and (re)write its section of bench/RESULTS.md
//   npm run bench:broadcast -- --contacts=500 a brief check that it works (no --write)
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiCall,
  runBench,
  startNodeChild,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Email broadcast (`npm run bench:broadcast`)';
const DEFAULT_CONTACTS = 10_000;
const GOALS = { queuedMs: 5_000, deliveredPerSecond: 300 };
const DOMAIN = 'news.bench.test';
const SINGLE_CONCURRENCY = 2;
const DRAIN_TIMEOUT_MS = 600_000;

const options = { write: false, contacts: DEFAULT_CONTACTS };
for (const arg of process.argv.slice(2)) {
  const [key, value] = arg.split(/=(.*)/s);
  if (key === '--write') options.write = true;
  else if (key === '--contacts' && Number.isInteger(Number(value)) && Number(value) >= 100)
    options.contacts = Math.ceil(Number(value) / 100) * 100;
  else {
    process.stderr.write(`broadcast.bench: unknown argument ${arg}\n`);
    process.exit(2);
  }
}
if (options.write && options.contacts !== DEFAULT_CONTACTS) {
  process.stderr.write('broadcast.bench: --write records only the standard 10,000 contacts\n');
  process.exit(2);
}

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-broadcast-'));
  const sink = startNodeChild(children, root, 'SMTP sink', [join(root, 'bench/smtp-sink.mjs')]);
  const [, sinkPort, statsUrl] = await sink.line(
    /listening at smtp:\/\/127\.0\.0\.1:(\d+) stats at (http:\/\/127\.0\.0\.1:\d+)/,
  );
  const stats = async (path = '/stats', method = 'GET') =>
    (await fetch(`${statsUrl}${path}`, { method })).json();
  const { startDnsServer } = require(join(root, 'dist/libs/testing/src/index.js'));
  const dns = await startDnsServer();
  const pg = require('pg');
  let db;
  try {
    const { base, adminToken, databaseUrl } = await startPlatformOnPostgres(
      children,
      root,
      tmp,
      'broadcast',
      { SMTP_RELAY_URL: `smtp://127.0.0.1:${sinkPort}`, DNS_SERVERS: dns.address },
    );
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
      name: 'Bench',
    });
    const token = created.api_key.secret;
    const call = (method, path, body) => apiCall(base, method, path, token, body);
    const domain = await call('POST', '/v1/email/domains', { domain: DOMAIN });
    for (const record of domain.dns_records)
      dns.set(record.host, [
        record.type === 'CNAME'
          ? { type: 'CNAME', domain: record.value }
          : { type: 'TXT', data: record.value },
      ]);
    const verified = await call('POST', `/v1/email/domains/${domain.id}/verify`);
    if (verified.status !== 'verified') throw new Error(`${DOMAIN} not verified`);
    const templateId = await publishTemplate(call);
    const audience = await call('POST', '/v1/audiences', { name: 'Everyone' });
    const contactsStarted = Date.now();
    for (let from = 0; from < options.contacts; from += 1000) {
      const contacts = Array.from({ length: Math.min(1000, options.contacts - from) }, (_, i) => ({
        email: `c${from + i}@example.com`,
        first_name: `Contact${from + i}`,
      }));
      await call('POST', '/v1/contacts/batch', { contacts, audience_ids: [audience.id] });
    }
    log(
      `${options.contacts} contacts created in bulk in ${Date.now() - contactsStarted} ms; single sends first ...`,
    );

    // 1. Single sends: one message per contact, in batches of 100.
    await stats('/reset', 'POST');
    const singlesStarted = Date.now();
    let next = 0;
    const sender = async () => {
      while (next < options.contacts) {
        const first = next;
        next += 100;
        const messages = Array.from({ length: 100 }, (_, i) => ({
          from: `news@${DOMAIN}`,
          to: [`c${first + i}@example.com`],
          subject: `Hello Contact${first + i}`,
          html: `<p>Hi Contact${first + i}</p>`,
        }));
        await call('POST', '/v1/email/batches', { messages });
      }
    };
    await Promise.all(Array.from({ length: SINGLE_CONCURRENCY }, sender));
    const singles = await drained(stats, options.contacts);
    const singlesPerSecond = options.contacts / ((singles.last_at - singlesStarted) / 1000);
    log(`  single sends: ${Math.round(singlesPerSecond)} delivered/s`);

    // 2. The broadcast.
    await stats('/reset', 'POST');
    const sentAt = Date.now();
    const broadcast = await call('POST', '/v1/email/broadcasts', {
      from: `news@${DOMAIN}`,
      audience_id: audience.id,
      template: { id: templateId },
      send: true,
    });
    const queuedMs = await queued(db, broadcast.id, sentAt);
    const delivered = await drained(stats, options.contacts);
    const broadcastPerSecond = options.contacts / ((delivered.last_at - sentAt) / 1000);
    log(
      `  broadcast: every message queued ${queuedMs} ms after the send, ${Math.round(broadcastPerSecond)} delivered/s`,
    );
    return report({
      queuedMs,
      broadcastPerSecond,
      singlesPerSecond,
      duplicates: delivered.duplicates,
    });
  } finally {
    await db?.end();
    await dns.stop();
  }
}

/** Waits until the preparation wrote every message (ms from the send). */
async function queued(db, broadcastId, sentAt) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const { rows } = await db.query(
      `SELECT prepared_at, status, failure_detail FROM email.broadcasts WHERE id = $1`,
      [broadcastId],
    );
    const [row] = rows;
    if (row?.status === 'failed') throw new Error(`the broadcast failed: ${row.failure_detail}`);
    if (row?.prepared_at) return row.prepared_at.getTime() - sentAt;
    if (Date.now() > deadline) throw new Error('the broadcast was not prepared in time');
    await sleep(20);
  }
}

/** Waits until the sink has `count` recipients (and no more arrive for a moment). */
async function drained(stats, count) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const now = await stats();
    if (now.recipients >= count) return now;
    if (Date.now() > deadline) throw new Error(`only ${now.recipients} of ${count} delivered`);
    await sleep(100);
  }
}

/** A template with one published version, through the templates API. */
async function publishTemplate(call) {
  const template = await call('POST', '/v1/email/templates', {
    slug: 'bench',
    category: 'marketing',
    source: 'html',
    languages: {
      en: {
        subject: 'Hello {{ bird.contact.first_name }}',
        html: '<p>Hi {{ bird.contact.first_name }}</p>',
      },
    },
  });
  const submitted = await call(
    'POST',
    `/v1/email/templates/${template.id}/versions/${template.draft_version_id}/submit`,
    {},
  );
  if (!submitted.valid) throw new Error('the bench template did not publish');
  return template.id;
}

async function report(figures) {
  const verdict = (ok) => (ok ? 'MEETS' : 'MISSES');
  const goals = [
    [
      figures.queuedMs < GOALS.queuedMs,
      `every message queued ${figures.queuedMs} ms after the send (goal: under ${GOALS.queuedMs} ms)`,
    ],
    [
      figures.broadcastPerSecond >= GOALS.deliveredPerSecond,
      `${Math.round(figures.broadcastPerSecond)} delivered/s (goal: ${GOALS.deliveredPerSecond}/s or more; single sends in the same run: ${Math.round(figures.singlesPerSecond)}/s)`,
    ],
  ];
  const met = goals.every(([ok]) => ok);
  const section = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}.**`,
    '',
    ...goals.map(([ok, text]) => `- ${verdict(ok)}: ${text}`),
    '',
    '| measure | broadcast | single sends |',
    '|---|---:|---:|',
    `| ${options.contacts.toLocaleString('en')} messages delivered into the sink | ${Math.round(figures.broadcastPerSecond)}/s | ${Math.round(figures.singlesPerSecond)}/s |`,
    `| send to every message queued | ${figures.queuedMs} ms | |`,
    `| duplicate Message-IDs at the sink | ${figures.duplicates} | |`,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, Node ${process.version}`,
    '- One embedded platform (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`) on its own embedded PostgreSQL; delivery through `SMTP_RELAY_URL` into `bench/smtp-sink.mjs`',
    `- ${options.contacts.toLocaleString('en')} contacts created through \`POST /v1/contacts/batch\` (1,000 per request) into one audience; a template published through the templates API (\`bird.contact.first_name\` in subject and body)`,
    `- Single sends: the same number of messages through \`POST /v1/email/batches\` (100 per request, ${SINGLE_CONCURRENCY} in flight), from the first request to the sink's last message`,
    "- Broadcast: `POST /v1/email/broadcasts` with `send: true`; queued is when the preparation recorded its last page (`prepared_at`), delivered/s from the request to the sink's last message",
    '',
    '```sh',
    'npm run bench:broadcast              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:broadcast -- --write   # same, and rewrite this section',
    '```',
  ].join('\n');
  log(`\n${section}\n`);
  if (options.write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('broadcast.bench', main, children, () => tmp);
