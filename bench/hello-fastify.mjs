#!/usr/bin/env node
// The bare Fastify baseline for bench/workspace-read.bench.mjs: `GET /` -> {"hello":"world"}.
// Usage: node bench/hello-fastify.mjs <port>   (0 picks a free port). Listens on 127.0.0.1 only
// and prints `hello-fastify listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(
    `usage: node bench/hello-fastify.mjs <port>  (got ${JSON.stringify(process.argv[2])})\n`,
  );
  process.exit(2);
}

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`hello-fastify listening at http://127.0.0.1:${app.server.address().port}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
