#!/usr/bin/env node
// The bare NATS hop of bench/reads.bench.mjs: the ceiling of the distributed topology, two Node
// processes and a request-reply between them, nothing else.
//   node bench/bare-nats.mjs responder
//       answers `bare.apps.get` ({"id"}) and `bare.apps.list` ({"limit"}) in queue group `bare`
//       with the realtime service's reads (bench/bare-apps.mjs: the same SELECTs through `pg`, the
//       same JSON) and prints `bare-nats responder ready`
//   node bench/bare-nats.mjs front <port>
//       a Fastify front (no logger) serving GET /apps/:id and GET /apps?limit=25 by one NATS
//       request each (JSON both ways, no headers, muxed reply inbox: @nats-io/transport-node's
//       `request`), printing `bare-nats front listening at http://127.0.0.1:<port>`
// NATS_URL says where nats-server is; the responder needs DATABASE_URL, DATABASE_POOL_SIZE and
// BENCH_WORKSPACE_ID as bench/bare-fastify.mjs does. Listens on 127.0.0.1 only; SIGTERM stops it.
import { connect, headers } from '@nats-io/transport-node';
import Fastify from 'fastify';
import { bareAppReads } from './bare-apps.mjs';

const [role, portArg] = process.argv.slice(2);
const port = Number(portArg ?? 0);
if (
  !process.env.NATS_URL ||
  !['responder', 'front'].includes(role) ||
  !Number.isInteger(port) ||
  port < 0 ||
  port > 65535
) {
  process.stderr.write(
    'usage: NATS_URL=nats://... node bench/bare-nats.mjs responder | front <port>\n',
  );
  process.exit(2);
}

const nc = await connect({ servers: process.env.NATS_URL, name: `bare-nats-${role}` });
const stops = [() => nc.drain()];

if (role === 'responder') {
  const reads = bareAppReads('bare-nats responder');
  stops.push(() => reads.end());
  const serve = (subject, answer) =>
    nc.subscribe(subject, {
      queue: 'bare',
      callback: (err, msg) => {
        if (err) return;
        answer(msg.json()).then(
          (reply) => msg.respond(JSON.stringify(reply ?? null)),
          // A failure answers with an `error` header, which the front turns into a 500.
          (failure) => {
            const h = headers();
            h.set('error', String(failure));
            msg.respond('', { headers: h });
          },
        );
      },
    });
  serve('bare.apps.get', ({ id }) => reads.get(id));
  serve('bare.apps.list', ({ limit }) => reads.list(limit));
  await nc.flush();
  process.stdout.write('bare-nats responder ready\n');
} else {
  const app = Fastify({ logger: false });
  const ask = async (subject, payload) => {
    const msg = await nc.request(subject, JSON.stringify(payload), { timeout: 10_000 });
    if (msg.headers?.has('error')) throw new Error(msg.headers.get('error'));
    return msg.json();
  };
  app.get('/apps/:id', async (request, reply) => {
    const found = await ask('bare.apps.get', { id: request.params.id });
    return found ?? reply.code(404).send({ error: 'not found' });
  });
  app.get('/apps', async (request) => ask('bare.apps.list', { limit: request.query.limit }));
  await app.listen({ port, host: '127.0.0.1' });
  stops.unshift(() => app.close());
  process.stdout.write(
    `bare-nats front listening at http://127.0.0.1:${app.server.address().port}\n`,
  );
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    stops
      .reduce((done, stop) => done.then(stop), Promise.resolve())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
