#!/usr/bin/env node
// The bare baseline of bench/whatsapp-webhooks.bench.mjs: Fastify (no logger) + a `pg` Pool doing
// what the platform does for a signed webhook, with the service's own code from the build:
//   dist/apps/sms-whatsapp/src/whatsapp/webhooks/webhook-signature.js   signatureOf() (HMAC-SHA256
//     of the raw body, compared in constant time) and payloadText() (a UTF-8 JSON object)
//   dist/apps/sms-whatsapp/src/whatsapp/webhooks/webhook-inbox.repository.js  the one statement
//     that inserts the inbox row and its job, then the NOTIFY that wakes the platform's workers
// No gateway, no transport, no group commit: one statement per webhook, which is the point.
//   POST /webhooks/whatsapp  raw body + X-Hub-Signature-256  -> 200
// Rows go to the database of DATABASE_URL (migrated by the platform), through a pool of
// DATABASE_POOL_SIZE connections (default 10); the platform's workers process them like its own.
// Usage: WHATSAPP_APP_SECRET=... DATABASE_URL=... node bench/bare-whatsapp-webhooks.mjs <port>
// (0 picks a free port); prints `bare-whatsapp-webhooks listening at http://127.0.0.1:<port>`.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const port = Number(process.argv[2] ?? 0);
const secret = process.env.WHATSAPP_APP_SECRET;
if (!Number.isInteger(port) || !process.env.DATABASE_URL || !secret) {
  process.stderr.write(
    'usage: DATABASE_URL=... WHATSAPP_APP_SECRET=... node bench/bare-whatsapp-webhooks.mjs <port>\n',
  );
  process.exit(2);
}
const webhooks = join(root, 'dist/apps/sms-whatsapp/src/whatsapp/webhooks');
const { signatureOf, payloadText } = require(join(webhooks, 'webhook-signature.js'));
const { WebhookInboxRepository, WEBHOOK_INBOX_QUEUE } = require(
  join(webhooks, 'webhook-inbox.repository.js'),
);
const { wakeQueue } = require(join(root, 'dist/libs/background/src/index.js'));

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const inbox = new WebhookInboxRepository();

const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/webhooks/whatsapp', async (request, reply) => {
  const body = request.body ?? Buffer.alloc(0);
  const signature = request.headers['x-hub-signature-256'];
  if (signatureOf(secret, body, typeof signature === 'string' ? signature : undefined) !== 'valid')
    return reply.code(401).send({ error: 'bad signature' });
  const text = payloadText(body);
  if (text === undefined) return reply.code(400).send({ error: 'not a JSON object' });
  await inbox.store(pool, [text]);
  wakeQueue(pool, 'sms_whatsapp', WEBHOOK_INBOX_QUEUE);
  return reply.code(200).send();
});
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-whatsapp-webhooks listening at ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
