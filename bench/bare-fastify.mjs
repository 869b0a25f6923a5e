#!/usr/bin/env node
// The bare Fastify baselines of bench/reads.bench.mjs, in one process with no logger:
//   GET /                -> {"hello":"world"}
// and, when DATABASE_URL is set, a `pg` Pool of DATABASE_POOL_SIZE connections (the realtime
// service's default, 10) running the very SELECTs the realtime service runs, with the same JSON out:
//   GET /apps/:id        -> the app (SELECT ... WHERE workspace_id = $1 AND id = $2)
//   GET /apps?limit=25   -> first page of the keyset list, newest first, with a signed next_cursor
// The workspace is BENCH_WORKSPACE_ID (no authentication: that is the point of a bare baseline).
// Usage: node bench/bare-fastify.mjs <port>   (0 picks a free port). Listens on 127.0.0.1 only
// and prints `bare-fastify listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `usage: node bench/bare-fastify.mjs <port>  (got ${JSON.stringify(process.argv[2])})\n`,
  );
  process.exit(2);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

let pool;
if (process.env.DATABASE_URL) {
  const workspaceId = process.env.BENCH_WORKSPACE_ID;
  if (!workspaceId) {
    process.stderr.write('bare-fastify: BENCH_WORKSPACE_ID is required with DATABASE_URL\n');
    process.exit(2);
  }
  pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  const COLUMNS =
    'id, workspace_id, app_id, name, region, status, connection_counting, created_at, updated_at';
  const GET_SQL = `SELECT ${COLUMNS} FROM realtime.apps WHERE workspace_id = $1 AND id = $2`;
  // The keyset paginator's first page: the sort value as exact text and the id for the cursor.
  const LIST_SQL =
    `SELECT ${COLUMNS}, to_char((created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "__keyset_value", (id)::text AS "__keyset_id"` +
    ` FROM realtime.apps WHERE (workspace_id = $1) AND TRUE ORDER BY (created_at) DESC, (id) DESC LIMIT $2`;
  const websocketUrl = 'ws://127.0.0.1:8080/app';
  const dto = (row) => ({
    id: row.id,
    app_id: row.app_id,
    name: row.name,
    region: row.region,
    status: row.status,
    connection_counting: row.connection_counting,
    tls_enforced: true,
    websocket_url: websocketUrl,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const secret = 'bare-fastify-cursor-secret';
  const cursor = (row) => {
    const body = Buffer.from(
      JSON.stringify({
        v: 1,
        s: 'created_at',
        o: 'desc',
        e: Date.now() + 86_400_000,
        k: [row.__keyset_value, row.__keyset_id],
      }),
    );
    const mac = createHmac('sha256', secret).update('cursor\0').update(body).digest();
    return Buffer.concat([mac, body]).toString('base64url');
  };

  app.get('/apps/:id', async (request, reply) => {
    const { rows } = await pool.query(GET_SQL, [workspaceId, request.params.id]);
    if (!rows.length) return reply.code(404).send({ error: 'not found' });
    return dto(rows[0]);
  });
  app.get('/apps', async (request) => {
    const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 25) || 25));
    const { rows } = await pool.query(LIST_SQL, [workspaceId, limit + 1]);
    const page = rows.slice(0, limit);
    return {
      data: page.map(dto),
      next_cursor: rows.length > limit ? cursor(page[page.length - 1]) : null,
      prev_cursor: null,
      refresh_cursor: page.length ? cursor(page[0]) : null,
    };
  });
}

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-fastify listening at http://127.0.0.1:${app.server.address().port}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app
      .close()
      .then(() => pool?.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
