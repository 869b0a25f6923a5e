#!/usr/bin/env node
// The bare Fastify baselines of bench/reads.bench.mjs, in one process with no logger:
//   GET /                -> {"hello":"world"}
// and, when DATABASE_URL is set, the realtime service's reads (bench/bare-apps.mjs: the very SELECTs
// it runs through a `pg` Pool of DATABASE_POOL_SIZE, the same JSON out):
//   GET /apps/:id        -> the app (SELECT ... WHERE workspace_id = $1 AND id = $2)
//   GET /apps?limit=25   -> first page of the keyset list, newest first, with a signed next_cursor
// The workspace is BENCH_WORKSPACE_ID (no authentication: that is the point of a bare baseline).
// Usage: node bench/bare-fastify.mjs <port>   (0 picks a free port). Listens on 127.0.0.1 only
// and prints `bare-fastify listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import Fastify from 'fastify';
import { bareAppReads } from './bare-apps.mjs';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `usage: node bench/bare-fastify.mjs <port>  (got ${JSON.stringify(process.argv[2])})\n`,
  );
  process.exit(2);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

let reads;
if (process.env.DATABASE_URL) {
  reads = bareAppReads('bare-fastify');
  app.get('/apps/:id', async (request, reply) => {
    const found = await reads.get(request.params.id);
    return found ?? reply.code(404).send({ error: 'not found' });
  });
  app.get('/apps', async (request) => reads.list(request.query.limit));
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
      .then(() => reads?.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
