#!/usr/bin/env node
// The bare baseline of bench/sms.bench.mjs: Fastify (no logger) + a `pg` Pool doing the very SQL
// the sms-whatsapp service runs for an accepted send, with the service's own code from the build:
//   dist/apps/sms-whatsapp/src/messages/accept/sms-draft.js          draftOutbound(): the rows
//   dist/apps/sms-whatsapp/src/messages/accept/accept.repository.js  AcceptRepository: the sender
//     read, then one transaction with the opt-out read (suppressions and preferences, ADR 14) and
//     the one insert (message, events, outbox, submit job), then the NOTIFY that wakes the
//     platform's workers
// No authentication, no validation, no idempotency record: that is the point of a bare baseline.
//   POST /messages  {to, from, text, category}  -> 202 {"id", "status": "accepted"}
// Every message belongs to BENCH_WORKSPACE_ID, in the database of DATABASE_URL (migrated by the
// platform), through a pool of DATABASE_POOL_SIZE connections (default 10). The platform's submit
// workers pick its jobs up like their own, so both sides carry the same background work.
// Usage: node bench/bare-sms.mjs <port>   (0 picks a free port); prints
// `bare-sms listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const port = Number(process.argv[2] ?? 0);
const workspaceId = process.env.BENCH_WORKSPACE_ID;
if (!Number.isInteger(port) || !process.env.DATABASE_URL || !workspaceId) {
  process.stderr.write(
    'usage: DATABASE_URL=... BENCH_WORKSPACE_ID=... node bench/bare-sms.mjs <port>\n',
  );
  process.exit(2);
}
const accept = join(root, 'dist/apps/sms-whatsapp/src/messages/accept');
const { draftOutbound } = require(join(accept, 'sms-draft.js'));
const { AcceptRepository } = require(join(accept, 'accept.repository.js'));
const { inPgTransaction } = require(join(root, 'dist/libs/persistence/src/index.js'));

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
// The repository reads its pool from a TypeORM DataSource's driver: hand it ours.
const repository = new AcceptRepository({ driver: { master: pool } });

const app = Fastify({ logger: false });
app.post('/messages', async (request, reply) => {
  const { to, from, text, category } = request.body;
  const held = await repository.heldSenders(workspaceId, [from]);
  if (held.length === 0) return reply.code(422).send({ error: 'sender not held' });
  const now = new Date();
  const sms = { to, from, text, category, smartEncoding: false, tags: [], metadata: {} };
  const draft = await inPgTransaction(pool, async (runner) => {
    const optOuts = await repository.optOutsAmong(runner, [{ workspaceId, ...sms }], true);
    const made = draftOutbound(workspaceId, sms, now, { suppressed: optOuts.get(0) ?? false });
    await repository.insert(runner, [made]);
    return made;
  });
  repository.wakeAll(draft.queued);
  return reply.code(202).send({ id: draft.row.id, status: draft.row.status });
});
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-sms listening at ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
