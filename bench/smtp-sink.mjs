#!/usr/bin/env node
// The SMTP sink of bench/email.bench.mjs, in its own process: a real SMTP server (smtp-server, no
// TLS, no authentication, any sender and recipient) that accepts every message and counts it,
// keeping nothing of the body but its Message-ID (to count duplicates).
//
// Usage: node bench/smtp-sink.mjs [smtp-port] [stats-port]   (0 or nothing picks free ports)
// Listens on 127.0.0.1 only and prints, once both servers are up,
//   smtp-sink listening at smtp://127.0.0.1:<port> stats at http://127.0.0.1:<port>
// The stats server answers:
//   GET  /stats   {"messages", "recipients", "unique", "duplicates", "without_message_id",
//                  "dkim_signed", "bytes", "sessions", "max_concurrent_sessions", "first_at",
//                  "last_at"}
//                 (times in ms since the epoch of this machine's clock, null before any message)
//   POST /reset   zeroes every count, forgets the Message-IDs seen, answers the stats before it
// SIGTERM or SIGINT stops it.
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const [smtpPort, statsPort] = [process.argv[2] ?? '0', process.argv[3] ?? '0'].map(Number);
for (const port of [smtpPort, statsPort]) {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: node bench/smtp-sink.mjs [smtp-port] [stats-port]\n');
    process.exit(2);
  }
}

/** Headers are read until this many bytes at most; a Message-ID further down is not looked for. */
const HEADER_LIMIT = 64 * 1024;

let counts;
let seen;
function reset() {
  const before = counts && stats();
  counts = {
    messages: 0,
    recipients: 0,
    duplicates: 0,
    withoutMessageId: 0,
    dkimSigned: 0,
    bytes: 0,
    sessions: 0,
    concurrent: counts?.concurrent ?? 0,
    maxConcurrent: counts?.concurrent ?? 0,
    firstAt: null,
    lastAt: null,
  };
  seen = new Set();
  return before;
}
reset();

function stats() {
  return {
    messages: counts.messages,
    recipients: counts.recipients,
    unique: seen.size,
    duplicates: counts.duplicates,
    without_message_id: counts.withoutMessageId,
    dkim_signed: counts.dkimSigned,
    bytes: counts.bytes,
    sessions: counts.sessions,
    max_concurrent_sessions: counts.maxConcurrent,
    first_at: counts.firstAt,
    last_at: counts.lastAt,
  };
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  banner: 'switchboard bench sink',
  size: 30 * 1024 * 1024,
  maxClients: 1000,
  onConnect(_session, callback) {
    counts.sessions++;
    counts.concurrent++;
    counts.maxConcurrent = Math.max(counts.maxConcurrent, counts.concurrent);
    callback();
  },
  onClose() {
    counts.concurrent = Math.max(0, counts.concurrent - 1);
  },
  onData(stream, session, callback) {
    let head = '';
    let bytes = 0;
    stream.on('data', (chunk) => {
      bytes += chunk.length;
      if (head.length < HEADER_LIMIT && !head.includes('\r\n\r\n'))
        head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      if (stream.sizeExceeded) {
        const error = new Error('message too large');
        error.responseCode = 552;
        return callback(error);
      }
      const headers = head.split('\r\n\r\n', 1)[0];
      const match = /^message-id:[ \t]*(?:\r\n[ \t]+)*<?([^\r\n>]+)>?/im.exec(headers);
      const now = Date.now();
      counts.messages++;
      counts.recipients += session.envelope.rcptTo.length;
      counts.bytes += bytes;
      counts.firstAt ??= now;
      counts.lastAt = now;
      if (/^dkim-signature:/im.test(headers)) counts.dkimSigned++;
      if (!match) counts.withoutMessageId++;
      else if (seen.has(match[1].trim())) counts.duplicates++;
      else seen.add(match[1].trim());
      callback(null, 'queued');
    });
  },
});
smtp.on('error', (err) => process.stderr.write(`smtp-sink: ${err.message}\n`));

const http = createServer((request, response) => {
  const answer = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET' && request.url === '/stats') return answer(200, stats());
  if (request.method === 'POST' && request.url === '/reset') return answer(200, reset());
  answer(404, { error: 'GET /stats or POST /reset' });
});

const listen = (server, net, port) =>
  new Promise((done, reject) => {
    net.once('error', reject);
    server.listen(port, '127.0.0.1', () => done(net.address().port));
  });
const boundSmtp = await listen(smtp, smtp.server, smtpPort);
const boundStats = await listen(http, http, statsPort);
process.stdout.write(
  `smtp-sink listening at smtp://127.0.0.1:${boundSmtp} stats at http://127.0.0.1:${boundStats}\n`,
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    http.close();
    smtp.close(() => process.exit(0));
    // smtp-server waits for open sessions to end: a pooled sender keeps them open.
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
