#!/usr/bin/env node
// The bare baseline of bench/email.bench.mjs: Fastify (no logger) + a `pg` Pool, writing the very
// rows the email service writes for an accepted send, with the service's own code from the build:
//   dist/apps/email/src/messages/accept/message-draft.js      draftMessage(): the rows to write
//   dist/apps/email/src/messages/accept/accept.repository.js  insertDrafts(): the same SQL
// as the service runs it without an Idempotency-Key: insertDrafts() is one statement, so it runs
// in autocommit, one round trip, a transaction of its own (no idempotency key, no sender check, no
// authentication, no validation: that is the point of a bare baseline).
//   POST /messages   one send      -> 202 {"id", "status": "accepted"}
//   POST /batches    {"messages"}  -> 202 {"data": [{"id", "status": "accepted"}, ...]}
// A body is mapped to the service's request shape with the defaults the gateway applies (lists
// empty, category `marketing`, tracking off); addresses are given as "a@b" or {"email", "name"}.
// Every message belongs to BENCH_WORKSPACE_ID, in the database of DATABASE_URL (migrated by the
// platform: the same tables), through a pool of DATABASE_POOL_SIZE connections (default 10).
// Usage: node bench/bare-email.mjs <port>   (0 picks a free port). Listens on 127.0.0.1 only and
// prints `bare-email listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `usage: node bench/bare-email.mjs <port>  (got ${JSON.stringify(process.argv[2])})\n`,
  );
  process.exit(2);
}
const workspaceId = process.env.BENCH_WORKSPACE_ID;
if (!process.env.DATABASE_URL || !workspaceId) {
  process.stderr.write('bare-email: DATABASE_URL and BENCH_WORKSPACE_ID are required\n');
  process.exit(2);
}

const accept = join(root, 'dist/apps/email/src/messages/accept');
let draftMessage;
let insertDrafts;
try {
  ({ draftMessage } = require(join(accept, 'message-draft.js')));
  ({ insertDrafts } = require(join(accept, 'accept.repository.js')));
} catch (err) {
  process.stderr.write(
    `bare-email: cannot load the email service's accept code from ${accept} (run \`node tools/build.mjs\`): ${err.message}\n`,
  );
  process.exit(2);
}

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const address = (value) =>
  typeof value === 'string'
    ? { email: value.trim().toLowerCase() }
    : {
        email: String(value.email).trim().toLowerCase(),
        ...(value.name ? { name: value.name } : {}),
      };
const addresses = (value) => (value === undefined ? [] : [value].flat().map(address));

/** The service's request shape, with the gateway's defaults. */
function sendRequest(body) {
  return {
    from: address(body.from),
    to: addresses(body.to),
    cc: addresses(body.cc),
    bcc: addresses(body.bcc),
    reply_to: addresses(body.reply_to),
    subject: body.subject,
    html: body.html,
    text: body.text,
    category: body.category ?? 'marketing',
    tags: body.tags ?? [],
    metadata: body.metadata,
    headers: body.headers ?? {},
    attachments: [],
    track_opens: body.track_opens ?? false,
    track_clicks: body.track_clicks ?? false,
    scheduled_at: body.scheduled_at,
  };
}

/**
 * Drafts and writes the messages in one transaction: insertDrafts() is a single statement, run
 * on the pool in autocommit exactly as the service runs a send without an Idempotency-Key.
 */
async function acceptAll(bodies) {
  const now = new Date();
  const drafts = bodies.map((body) => draftMessage(workspaceId, sendRequest(body), false, now));
  await insertDrafts(
    { query: async (sql, params) => (await pool.query(sql, params)).rows },
    drafts,
  );
  return drafts;
}

const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
app.post('/messages', async (request, reply) => {
  const [draft] = await acceptAll([request.body]);
  return reply.code(202).send({ id: draft.message.id, status: 'accepted' });
});
app.post('/batches', async (request, reply) => {
  const drafts = await acceptAll(request.body.messages);
  return reply
    .code(202)
    .send({ data: drafts.map((draft) => ({ id: draft.message.id, status: 'accepted' })) });
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-email listening at http://127.0.0.1:${app.server.address().port}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app
      .close()
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
