// The realtime service's two app reads, bare: the very SELECTs it runs through a `pg` Pool, and the
// same JSON out. Shared by the bare baselines of bench/reads.bench.mjs (bare-fastify.mjs answers
// them over HTTP, bare-nats.mjs over a NATS request-reply), so both do exactly the same work.
import { createHmac } from 'node:crypto';
import pg from 'pg';

const COLUMNS =
  'id, workspace_id, app_id, name, region, status, connection_counting, created_at, updated_at';
const GET_SQL = `SELECT ${COLUMNS} FROM realtime.apps WHERE workspace_id = $1 AND id = $2`;
// The keyset paginator's first page: the sort value as exact text and the id for the cursor.
const LIST_SQL =
  `SELECT ${COLUMNS}, to_char((created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "__keyset_value", (id)::text AS "__keyset_id"` +
  ` FROM realtime.apps WHERE (workspace_id = $1) AND TRUE ORDER BY (created_at) DESC, (id) DESC LIMIT $2`;
const WEBSOCKET_URL = 'ws://127.0.0.1:8080/app';
const CURSOR_SECRET = 'bare-fastify-cursor-secret';

const dto = (row) => ({
  id: row.id,
  app_id: row.app_id,
  name: row.name,
  region: row.region,
  status: row.status,
  connection_counting: row.connection_counting,
  tls_enforced: true,
  websocket_url: WEBSOCKET_URL,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

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
  const mac = createHmac('sha256', CURSOR_SECRET).update('cursor\0').update(body).digest();
  return Buffer.concat([mac, body]).toString('base64url');
};

/**
 * The reads of BENCH_WORKSPACE_ID's apps on DATABASE_URL (a Pool of DATABASE_POOL_SIZE, default
 * 10, the realtime service's default): `get(id)` resolves to the app or undefined, `list(limit)`
 * to the first page with a signed next_cursor; `end()` closes the pool. Exits with a line on
 * stderr when a variable is missing.
 */
export function bareAppReads(name) {
  const workspaceId = process.env.BENCH_WORKSPACE_ID;
  if (!process.env.DATABASE_URL || !workspaceId) {
    process.stderr.write(`${name}: DATABASE_URL and BENCH_WORKSPACE_ID are required\n`);
    process.exit(2);
  }
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  });
  return {
    async get(id) {
      const { rows } = await pool.query(GET_SQL, [workspaceId, id]);
      return rows.length ? dto(rows[0]) : undefined;
    },
    async list(rawLimit) {
      const limit = Math.min(100, Math.max(1, Number(rawLimit ?? 25) || 25));
      const { rows } = await pool.query(LIST_SQL, [workspaceId, limit + 1]);
      const page = rows.slice(0, limit);
      return {
        data: page.map(dto),
        next_cursor: rows.length > limit ? cursor(page[page.length - 1]) : null,
        prev_cursor: null,
        refresh_cursor: page.length ? cursor(page[0]) : null,
      };
    },
    end: () => pool.end(),
  };
}
