#!/usr/bin/env node
// The bare baseline of bench/stats.bench.mjs: Fastify + `pg` answering the same questions as the
// SMS stats routes with a plain `SELECT count(*) ... GROUP BY` over the message table (what a
// stats query without rollups does), no authentication, no validation, no transport hop.
//   GET /summary?from=&to=      counts per status over [from, to)
//   GET /daily?from=&to=        counts per UTC day and status
//   GET /originators?from=&to=  counts per originator and status
// The workspace is BENCH_WORKSPACE_ID. Usage: node bench/bare-stats.mjs <port> (0: a free one);
// prints `bare-stats listening at http://127.0.0.1:<port>` once ready.
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.argv[2] ?? 0);
const workspaceId = process.env.BENCH_WORKSPACE_ID;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const window = (query) => [workspaceId, query.from, query.to];
const rows = async (sql, params) => (await pool.query(sql, params)).rows;

app.get('/summary', async (request) =>
  rows(
    `SELECT status, count(*)::int AS count FROM sms_whatsapp.sms_messages
     WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY status`,
    window(request.query),
  ),
);
app.get('/daily', async (request) =>
  rows(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS bucket, status, count(*)::int AS count
     FROM sms_whatsapp.sms_messages
     WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1, 2 ORDER BY 1`,
    window(request.query),
  ),
);
app.get('/originators', async (request) =>
  rows(
    `SELECT from_address AS originator, status, count(*)::int AS count FROM sms_whatsapp.sms_messages
     WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1, 2`,
    window(request.query),
  ),
);

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-stats listening at http://127.0.0.1:${app.server.address().port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => {
    void app
      .close()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
