#!/usr/bin/env node
// Runs the embedded PostgreSQL as a child process for tests and benchmarks: prints {"url": ...}
// once ready and stops the server on SIGTERM or SIGINT.
// Usage: node tools/embedded-postgres.mjs <data-dir> [--persistent]
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const {
  EmbeddedPostgresError,
  startEmbeddedPostgres,
} = require('../dist/libs/embedded-postgres/src/index.js');
const [dataDir] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: node tools/embedded-postgres.mjs <data-dir> [--persistent]\n');
  process.exit(2);
}
const server = await startEmbeddedPostgres({
  dataDir,
  persistent: process.argv.includes('--persistent'),
  onNotice: (m) => process.stderr.write(`${m}\n`),
}).catch((err) => {
  // Known start-up failures are one line; anything else is a bug and keeps its stack.
  const told = err instanceof EmbeddedPostgresError ? err.message : err?.stack;
  process.stderr.write(`embedded PostgreSQL failed to start: ${told ?? err}\n`);
  process.exit(1);
});
process.stdout.write(
  `${JSON.stringify({ url: server.url, port: server.port, dataDir: server.dataDir })}\n`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
