#!/usr/bin/env node
// The bare baseline of bench/tracking-opens.mjs: Fastify alone serving the platform's open pixel
// (the same 43-byte GIF and headers) at GET /t/o/:token, with no token check, no transport and
// no recording. Usage: node bench/bare-pixel.mjs <port> (0 picks a free one); prints
// `bare-pixel listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import Fastify from 'fastify';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false, routerOptions: { maxParamLength: 8000 } });
app.get('/t/o/:token', (_request, reply) =>
  reply
    .header('cache-control', 'no-store, no-cache, must-revalidate, private')
    .type('image/gif')
    .send(PIXEL),
);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-pixel listening at http://127.0.0.1:${app.server.address().port}\n`);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => void app.close().then(() => process.exit(0)));
