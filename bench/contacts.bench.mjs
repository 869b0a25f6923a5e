#!/usr/bin/env node
// Bulk upsert of contacts: `POST /v1/contacts/batch` with 1,000 entries through the gateway on the
// embedded default, for 1,000 new contacts and for 1,000 existing ones, side by side in one run
// with the bare statement: a `pg` multi-row INSERT ... ON CONFLICT (workspace_id, email) DO UPDATE
// of the same rows from this process (no HTTP, no checks, no per-entry results).
//
//   npm run bench:contacts              # build, measure, print figures and MEETS / MISSES
//   npm run bench:contacts -- --write   # same, and rewrite its section of bench/RESULTS.md
//
// Exit status 0 when every goal is met, 1 otherwise (or when the run fails).
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  apiCall,
  cpuSnapshot,
  percentile,
  runBench,
  startPlatformOnPostgres,
  writeResultsSection,
} from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const RESULTS_FILE = join(root, 'bench', 'RESULTS.md');
const HEADING = '## Contacts bulk upsert (`npm run bench:contacts`)';
const write = process.argv.includes('--write');

const ENTRIES = 1000;
const WARMUP_ROUNDS = 3;
const ROUNDS = 20;
const GOALS = { p99Ms: 1000, ratio: 3, moonshotMs: 250 };

const children = [];
let tmp;
const log = (line) => process.stdout.write(`${line}\n`);

/** 1,000 entries of a round: the same shape on both sides. */
function entries(round, side) {
  return Array.from({ length: ENTRIES }, (_, i) => ({
    email: `person${i}.r${round}@${side}.bench.test`,
    first_name: `First${i}`,
    last_name: `Last${round}`,
    data: { plan: i % 2 ? 'pro' : 'free' },
  }));
}

/** The bare statement: one multi-row INSERT ... ON CONFLICT of the same rows. */
async function bareUpsert(pool, workspaceId, rows) {
  const params = [];
  const values = rows.map((row, i) => {
    params.push(`con_bare_${row.email}`, workspaceId, row.email, row.first_name, row.last_name);
    params.push(JSON.stringify(row.data));
    const at = i * 6;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}::jsonb)`;
  });
  await pool.query(
    `INSERT INTO workspace_objects.contacts (id, workspace_id, email, first_name, last_name, data)
     VALUES ${values.join(', ')}
     ON CONFLICT (workspace_id, email) WHERE email IS NOT NULL DO UPDATE SET
       first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
       data = workspace_objects.contacts.data || EXCLUDED.data, updated_at = clock_timestamp()`,
    params,
  );
}

async function timed(work) {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main() {
  tmp = await mkdtemp(join(os.tmpdir(), 'switchboard-bench-contacts-'));
  const {
    databaseUrl: url,
    base,
    adminToken,
  } = await startPlatformOnPostgres(children, root, tmp, 'contacts');
  const created = await apiCall(base, 'POST', '/admin/v1/workspaces', adminToken, {
    name: 'Bench',
  });
  const token = created.api_key.secret;
  await apiCall(base, 'POST', '/v1/contact-properties', token, { key: 'plan', type: 'string' });
  const pool = new Pool({ connectionString: url, max: 1 });
  const groups = children.map((child) => child.proc.pid);

  const platformUpsert = async (rows) => {
    const answer = await apiCall(base, 'POST', '/v1/contacts/batch', token, { contacts: rows });
    const failed = answer.data.filter((result) => result.status === 'failed');
    if (failed.length)
      throw new Error(`${failed.length} entries failed: ${JSON.stringify(failed[0])}`);
  };
  const times = {
    new: { platform: [], bare: [] },
    existing: { platform: [], bare: [] },
  };
  log(`warm-up: ${WARMUP_ROUNDS} rounds of 1,000 new and 1,000 existing contacts on each side ...`);
  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    await platformUpsert(entries(round, 'platform'));
    await platformUpsert(entries(round, 'platform'));
    await bareUpsert(pool, 'ws_bare', entries(round, 'bare'));
    await bareUpsert(pool, 'ws_bare', entries(round, 'bare'));
  }
  log(
    `measuring: ${ROUNDS} rounds, each side in turn: 1,000 new contacts, then the same 1,000 again ...`,
  );
  const before = await cpuSnapshot(groups);
  for (let round = WARMUP_ROUNDS; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const sides = [
      ['platform', (rows) => platformUpsert(rows)],
      ['bare', (rows) => bareUpsert(pool, 'ws_bare', rows)],
    ];
    if (round % 2) sides.reverse();
    for (const [side, upsert] of sides) {
      const rows = entries(round, side);
      times.new[side].push(await timed(() => upsert(rows)));
      times.existing[side].push(await timed(() => upsert(rows)));
    }
  }
  const after = await cpuSnapshot(groups);
  const [platformCount] = (
    await pool.query(
      `SELECT count(*)::int AS n FROM workspace_objects.contacts WHERE workspace_id = $1`,
      [created.workspace.id],
    )
  ).rows;
  await pool.end();
  const expected = (WARMUP_ROUNDS + ROUNDS) * ENTRIES;
  if (platformCount.n !== expected)
    throw new Error(`the platform holds ${platformCount.n} contacts, expected ${expected}`);
  return report(times, cpuShare(before, after, groups));
}

function cpuShare(before, after, groups) {
  if (!before || !after) return undefined;
  const seconds = Number(after.at - before.at) / 1e9;
  const [pg, platform] = groups;
  return {
    platform: (after.byGroup[platform] - before.byGroup[platform]) / 100 / seconds,
    postgres: (after.byGroup[pg] - before.byGroup[pg]) / 100 / seconds,
    other: Math.max(0, (after.busy - before.busy - (after.ours - before.ours)) / 100 / seconds),
  };
}

async function report(times, cpu) {
  const ms = (n) => `${Math.round(n)} ms`;
  const stats = (values) => ({ p50: percentile(values, 50), p99: percentile(values, 99) });
  const verdicts = [];
  const rows = [];
  let met = true;
  for (const kind of ['new', 'existing']) {
    const platform = stats(times[kind].platform);
    const bare = stats(times[kind].bare);
    const ratio = platform.p50 / bare.p50;
    const meets = platform.p99 < GOALS.p99Ms && ratio <= GOALS.ratio;
    met &&= meets;
    verdicts.push(
      `- ${meets ? 'MEETS' : 'MISSES'}: 1,000 ${kind} contacts: p50 ${ms(platform.p50)}, p99 ${ms(platform.p99)} (goal < ${ms(GOALS.p99Ms)}), ${ratio.toFixed(2)}x the bare statement's p50 (goal <= ${GOALS.ratio}x)`,
      `- ${platform.p50 <= GOALS.moonshotMs ? 'MEETS' : 'MISSES'} (moonshot): p50 ${ms(platform.p50)} for 1,000 ${kind} contacts (moonshot <= ${ms(GOALS.moonshotMs)})`,
    );
    rows.push(
      `| ${kind} | Switchboard \`POST /v1/contacts/batch\` | ${ms(platform.p50)} | ${ms(platform.p99)} | ${ratio.toFixed(2)}x |`,
      `| ${kind} | bare \`pg\` INSERT ... ON CONFLICT | ${ms(bare.p50)} | ${ms(bare.p99)} | 1.00x |`,
    );
  }
  const lines = [
    HEADING,
    '',
    `**Result: ${met ? 'every goal met' : 'NOT every goal met'}.**`,
    '',
    ...verdicts,
    '',
    '| contacts | target | p50 | p99 | p50 of bare |',
    '|---|---|---:|---:|---:|',
    ...rows,
    '',
    '### How it was measured',
    '',
    `- Date: ${new Date().toISOString()}; machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    '- Switchboard: the embedded default (`node dist/apps/standalone/src/main.js`, `LOG_LEVEL=warn`, `RATE_LIMITS=off`), one embedded PostgreSQL (fsync on); a batch of 1,000 entries (email, first and last name, one `data` key of a declared string property) sent with the API key, timed from the request to the parsed 200 with its 1,000 results; every entry checked to be `created` or `updated`',
    '- Bare: the same rows as one multi-row `INSERT ... ON CONFLICT (workspace_id, email) DO UPDATE` (6,000 parameters) through a `pg` Pool of one connection in the bench process: no HTTP, no authentication, no validation, no per-entry results',
    `- ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds; in each round each side (in alternating order) upserts 1,000 new contacts, then the same 1,000 again (existing); p50 and p99 over the rounds (with ${ROUNDS} samples the p99 is the slowest)`,
    cpu
      ? `- CPU over the measured rounds: platform ${cpu.platform.toFixed(2)}, PostgreSQL ${cpu.postgres.toFixed(2)}, other processes ${cpu.other.toFixed(2)} CPUs`
      : '- CPU: not measured',
    '',
    '```sh',
    'npm run bench:contacts              # build, measure, print the figures and MEETS / MISSES',
    'npm run bench:contacts -- --write   # same, and rewrite this section',
    '```',
  ];
  const section = lines.join('\n');
  log(`\n${section}\n`);
  if (write) await writeResultsSection(RESULTS_FILE, HEADING, section);
  return met ? 0 : 1;
}

await runBench('contacts.bench', main, children, () => tmp);
