#!/usr/bin/env node
// The bare baseline of bench/whatsapp-send.bench.mjs: Fastify (no logger) + a `pg` Pool doing the
// very SQL the sms-whatsapp service runs for an accepted template send, with the service's own
// code from the build:
//   dist/apps/sms-whatsapp/src/whatsapp/messages/accept/send-rules.js   WhatsAppSendRules: the
//     sender read, the template and its language read (TemplateCatalog), the Graph body
//   dist/apps/sms-whatsapp/src/whatsapp/messages/accept/whatsapp-draft.js  draftOutbound(): the rows
//   dist/apps/sms-whatsapp/src/preferences/index.js  stoppedByPreferences(): the recipient's
//     preferences (ADR 14)
//   dist/apps/sms-whatsapp/src/whatsapp/messages/accept/accept.repository.js  the one insert
//     (message, event, outbox, dispatch job) in autocommit, then the NOTIFY that wakes the workers
// No authentication, no validation of the body, no idempotency, no group commit: a bare baseline.
//   POST /messages  {to, from, template: {slug, language}}  -> 202 {"id", "status": "accepted"}
// Every message belongs to BENCH_WORKSPACE_ID, in the database of DATABASE_URL (migrated and seeded
// by the bench), through a pool of DATABASE_POOL_SIZE connections (default 10). The platform's
// dispatch workers pick its jobs up like their own, so both sides carry the same background work.
// Usage: node bench/bare-whatsapp.mjs <port>   (0 picks a free port); prints
// `bare-whatsapp listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
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
    'usage: DATABASE_URL=... BENCH_WORKSPACE_ID=... node bench/bare-whatsapp.mjs <port>\n',
  );
  process.exit(2);
}
const whatsapp = join(root, 'dist/apps/sms-whatsapp/src/whatsapp');
const { WhatsAppNumbersRepository } = require(join(whatsapp, 'numbers/index.js'));
const { TemplateCatalog } = require(join(whatsapp, 'templates/template-catalog.js'));
const { WhatsAppTemplatesRepository } = require(
  join(whatsapp, 'templates/templates.repository.js'),
);
const { WhatsAppAcceptRepository } = require(
  join(whatsapp, 'messages/accept/accept.repository.js'),
);
const { WhatsAppSendRules } = require(join(whatsapp, 'messages/accept/send-rules.js'));
const { draftOutbound, isTransactional } = require(
  join(whatsapp, 'messages/accept/whatsapp-draft.js'),
);
const { stoppedByPreferences } = require(
  join(root, 'dist/apps/sms-whatsapp/src/preferences/index.js'),
);

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
// The repositories read their pool from a TypeORM DataSource's driver: hand them ours.
const dataSource = { driver: { master: pool } };
const repository = new WhatsAppAcceptRepository(dataSource);
const rules = new WhatsAppSendRules(
  new WhatsAppNumbersRepository(dataSource),
  new TemplateCatalog(new WhatsAppTemplatesRepository(dataSource)),
  repository,
);

const app = Fastify({ logger: false });
app.post('/messages', async (request, reply) => {
  const { to, from, template } = request.body;
  const send = await rules.resolve(workspaceId, {
    to: { kind: 'phone_number', phoneNumber: to },
    from,
    content: { kind: 'template', template },
    tags: [],
    metadata: {},
  });
  const stopped = await stoppedByPreferences(repository.autocommit, [
    {
      workspaceId,
      channel: 'whatsapp',
      handle: to,
      senderScope: send.businessAccount,
      transactional: isTransactional(send),
    },
  ]);
  const draft = draftOutbound(workspaceId, send, new Date(), { optedOut: stopped.has(0) });
  await repository.insert(repository.autocommit, [draft]);
  repository.wakeAll(draft.job !== null);
  return reply.code(202).send({ id: draft.row.id, status: draft.row.status });
});
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-whatsapp listening at ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
