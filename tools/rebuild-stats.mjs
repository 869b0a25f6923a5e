#!/usr/bin/env node
// `npm run stats:rebuild -- --channel sms|whatsapp|email [--workspace ws_...] [--chunk 50000]`:
// recomputes a channel's stats rollups from the stored message timelines (after a restore, or
// when a rollup dimension changed; ADR 18), printing its progress. It connects to DATABASE_URL
// (the database the services run on), else to the running embedded default's (it names it in
// DATA_DIR/database-url), and runs the service's own fold statement, so the live consumer may keep
// running meanwhile: an event is counted once, by whichever folds it first.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { rebuildStats } = require('../dist/apps/sms-whatsapp/src/stats/stats-rebuild.js');
const { rebuildEmailStats } = require('../dist/apps/email/src/stats/email-stats-rebuild.js');

const USAGE =
  'usage: npm run stats:rebuild -- --channel sms|whatsapp|email [--workspace <ws_id>] [--chunk <rows>]\n' +
  "       (DATABASE_URL names the database the services run on; unset, the running embedded default's)\n";

function fail(message) {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      channel: { type: 'string' },
      workspace: { type: 'string' },
      chunk: { type: 'string' },
      help: { type: 'boolean' },
    },
  }));
} catch (err) {
  fail(err.message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!['sms', 'whatsapp', 'email'].includes(values.channel))
  fail('--channel must be sms, whatsapp or email');
const chunk = values.chunk === undefined ? undefined : Number(values.chunk);
if (chunk !== undefined && !(Number.isInteger(chunk) && chunk > 0))
  fail('--chunk must be a positive integer');
const databaseUrl = process.env.DATABASE_URL || runningEmbeddedDatabase();
if (!databaseUrl)
  fail(
    'DATABASE_URL is not set, and no embedded default runs on DATA_DIR (start it with npm start)',
  );

/** The embedded default's PostgreSQL while it runs: it names it in DATA_DIR/database-url. */
function runningEmbeddedDatabase() {
  const file = join(resolve(process.env.DATA_DIR ?? './.data'), 'database-url');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

const client = new Client({ connectionString: databaseUrl });
try {
  await client.connect();
} catch (err) {
  fail(
    process.env.DATABASE_URL
      ? `cannot reach DATABASE_URL: ${err.message}`
      : `cannot reach the embedded default's database (${err.message}): is npm start running on this DATA_DIR? A database-url file left by a crash is stale`,
  );
}
const runner = { query: async (sql, params) => (await client.query(sql, params)).rows };
const begin = async (work) => {
  await client.query('BEGIN');
  try {
    const result = await work(runner);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
};
const started = Date.now();
const interactive = process.stdout.isTTY;
try {
  const rebuild =
    values.channel === 'email'
      ? (options) => rebuildEmailStats(runner, begin, options)
      : (options) => rebuildStats(runner, begin, { ...options, channel: values.channel });
  const done = await rebuild({
    workspaceId: values.workspace,
    chunk,
    onProgress: ({ read, total, folded, settling }) => {
      const line = settling
        ? `rebuild-stats ${values.channel}: vacuuming ${settling}, ${((Date.now() - started) / 1000).toFixed(1)} s`
        : `rebuild-stats ${values.channel}: ${read}/${total} events read (${total ? Math.floor((100 * read) / total) : 100}%), ${folded} folded, ${((Date.now() - started) / 1000).toFixed(1)} s`;
      // On a terminal each line replaces the last (cleared first: a shorter one leaves no tail).
      process.stdout.write(interactive ? `\r\x1b[K${line}` : `${line}\n`);
    },
  });
  if (interactive) process.stdout.write('\n');
  process.stdout.write(
    `rebuild-stats ${values.channel}: done, ${done.folded} ${values.channel === 'email' ? 'events' : '(message, event) pairs'} folded from ${done.total} events in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
} catch (err) {
  process.stderr.write(`rebuild-stats: ${err.message}\n`);
  process.exitCode = 1;
} finally {
  await client.end();
}
