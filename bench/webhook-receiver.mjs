#!/usr/bin/env node
// The webhooks bench's receiver, a process of its own: answers 200 to every POST on 127.0.0.1,
// and for bodies carrying `data.emitted_at` (epoch ms, set by the emitting transaction) keeps the
// emit-to-receive latency. Prints {"port": ...} once listening; answers `stats` / `reset` on IPC.
import { createServer } from 'node:http';

let latencies = [];
let received = 0;
let firstAt = 0;
let lastAt = 0;
const ids = new Set();
let duplicates = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    const id = req.headers['webhook-id'];
    if (id && ids.has(id)) duplicates += 1;
    else if (id) ids.add(id);
    received += 1;
    firstAt ||= now;
    lastAt = now;
    try {
      const emitted = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.data?.emitted_at;
      if (typeof emitted === 'number') latencies.push(now - emitted);
    } catch {
      /* a bare request's body */
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('message', (message) => {
  if (message === 'reset') {
    latencies = [];
    received = 0;
    firstAt = 0;
    lastAt = 0;
    duplicates = 0;
    ids.clear();
    process.send?.({ reset: true });
  } else if (message === 'stats') {
    process.send?.({ received, firstAt, lastAt, duplicates, latencies });
  }
});
process.on('disconnect', () => process.exit(0));
