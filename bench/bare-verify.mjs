#!/usr/bin/env node
// The bare baseline of bench/verify.bench.mjs: Fastify + `pg` doing the verify service's own SQL
// on the same PostgreSQL (its own schema `bare_verify`, the same two tables and indexes):
//   POST /verifications {to: {phone_number}} -> the create transaction (recipient lock, pending
//     read, hourly-cap count, insert, passcode hash, attempt) and the attempt marked sent
//   POST /verifications/check {to: {phone_number}, code} -> the check transaction (a check spent
//     atomically, the HMAC compared in constant time)
// No authentication, no validation, no transport hop, and no SMS accepted: the platform's create
// also has the SMS service store the passcode message, which a bare route has no peer for.
// Usage: node bench/bare-verify.mjs <port> <database url>. Prints
// `bare-verify listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.argv[2] ?? 0);
const databaseUrl = process.argv[3];
if (!Number.isInteger(port) || !databaseUrl) {
  process.stderr.write('usage: node bench/bare-verify.mjs <port> <database url>\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
const key = createHmac('sha256', 'bare').update('key').digest();
const S = 'bare_verify';
await pool.query(`
  CREATE SCHEMA IF NOT EXISTS ${S};
  CREATE TABLE IF NOT EXISTS ${S}.verifications (
    id text PRIMARY KEY, workspace_id text NOT NULL, recipient_key text NOT NULL, email text,
    phone_number text, status text NOT NULL, reason text, channels text[] NOT NULL,
    channel_index int NOT NULL DEFAULT 0, last_channel text, language text NOT NULL,
    code_length int NOT NULL, code_hashes bytea[] NOT NULL DEFAULT '{}', code_attempts text[] NOT NULL DEFAULT '{}', checks int NOT NULL DEFAULT 0,
    max_checks int NOT NULL, metadata jsonb, last_sent_at timestamptz, expires_at timestamptz NOT NULL,
    verified_at timestamptz, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
  CREATE UNIQUE INDEX IF NOT EXISTS verifications_pending_idx ON ${S}.verifications
    (workspace_id, recipient_key) WHERE status = 'pending';
  CREATE TABLE IF NOT EXISTS ${S}.verification_attempts (
    id text PRIMARY KEY, workspace_id text NOT NULL, verification_id text NOT NULL, channel text NOT NULL,
    address text NOT NULL, passcode_seed text, sender text, message_id text, status text NOT NULL, reason text, error text,
    counts_toward_cap boolean NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
  CREATE INDEX IF NOT EXISTS verification_attempts_cap_idx ON ${S}.verification_attempts
    (workspace_id, address, created_at) WHERE counts_toward_cap;
`);

async function transaction(work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

const app = Fastify({ logger: false });
app.post('/verifications', async (request) => {
  const phone = String(request.body?.to?.phone_number ?? '');
  const recipient = `|${phone}`;
  const id = `vrf_${randomUUID()}`;
  const attempt = `vat_${randomUUID()}`;
  const row = await transaction(async (client) => {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' ' || $2::text, 13))`,
      ['ws', recipient],
    );
    const pending = await client.query(
      `SELECT * FROM ${S}.verifications WHERE workspace_id = $1 AND recipient_key = $2 AND status = 'pending'`,
      ['ws', recipient],
    );
    if (pending.rows[0]) return pending.rows[0];
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' address ' || $2::text, 13))`,
      ['ws', phone],
    );
    await client.query(
      `SELECT created_at FROM ${S}.verification_attempts WHERE workspace_id = $1 AND address = $2
         AND counts_toward_cap AND created_at > clock_timestamp() - interval '1 hour' ORDER BY created_at`,
      ['ws', phone],
    );
    await client.query(
      `INSERT INTO ${S}.verifications (id, workspace_id, recipient_key, phone_number, status, channels,
         language, code_length, max_checks, expires_at)
       VALUES ($1, 'ws', $2, $3, 'pending', $4, 'nl', 6, 20, now() + interval '10 minutes')`,
      [id, recipient, phone, ['sms', 'whatsapp']],
    );
    let code = '';
    for (let i = 0; i < 6; i++) code += String(randomInt(10));
    const hash = createHmac('sha256', key).update(`${id}:${code}`).digest();
    const updated = await client.query(
      `UPDATE ${S}.verifications SET code_hashes = code_hashes || $2::bytea,
         code_attempts = code_attempts || $3::text, last_sent_at = now()
       WHERE id = $1 RETURNING *`,
      [id, hash, attempt],
    );
    await client.query(
      `INSERT INTO ${S}.verification_attempts (id, workspace_id, verification_id, channel, address,
         passcode_seed, status, counts_toward_cap) VALUES ($1, 'ws', $2, 'sms', $3, $4, 'sending', true)`,
      [attempt, id, phone, randomUUID()],
    );
    return updated.rows[0];
  });
  await transaction(async (client) => {
    await client.query(
      `UPDATE ${S}.verification_attempts SET status = 'sent', message_id = $2, passcode_seed = NULL
       WHERE id = $1`,
      [attempt, `sms_${attempt}`],
    );
    await client.query(
      `UPDATE ${S}.verifications SET last_channel = 'sms', channel_index = GREATEST(channel_index, 0)
       WHERE id = $1 RETURNING *`,
      [row.id],
    );
  });
  return { id: row.id, status: row.status, to: { phone_number: phone } };
});

app.post('/verifications/check', async (request, reply) => {
  const phone = String(request.body?.to?.phone_number ?? '');
  const code = String(request.body?.code ?? '');
  return transaction(async (client) => {
    const spent = await client.query(
      `UPDATE ${S}.verifications SET checks = checks + 1, updated_at = clock_timestamp()
       WHERE workspace_id = 'ws' AND recipient_key = $1 AND status = 'pending' AND checks < max_checks
       RETURNING *`,
      [`|${phone}`],
    );
    const row = spent.rows[0];
    if (!row) return reply.code(404).send({ error: 'none' });
    const candidate = createHmac('sha256', key).update(`${row.id}:${code}`).digest();
    const matched = row.code_hashes.some(
      (hash) => hash.length === candidate.length && timingSafeEqual(hash, candidate),
    );
    return { success: matched, attempts_remaining: row.max_checks - row.checks };
  });
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-verify listening at http://127.0.0.1:${app.server.address().port}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    Promise.all([app.close(), pool.end()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
