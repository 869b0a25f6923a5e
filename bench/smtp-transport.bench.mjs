#!/usr/bin/env node
// Throughput of the email service's SMTP transport (apps/email/src/delivery/transport) through a
// relay: messages per second from MailTransport.deliver into a local smtp-server sink that
// accepts everything, with CONCURRENCY deliveries in flight (EMAIL_DESTINATION_CONCURRENCY of the
// same value, so as many pooled connections). Each message is about 6 KB (text, HTML, one
// recipient), composed per delivery as the service does; measured once unsigned and once DKIM
// signed (RSA-2048).
//
//   node tools/build.mjs && node bench/smtp-transport.bench.mjs [--duration=<s>] [--concurrency=<n>]
//
// The sink runs in a child process (so its parsing does not share the event loop with the
// transport); a failed or non-delivered message fails the run (exit 1).
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const found = process.argv.find((value) => value.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const DURATION_S = arg('duration', 10);
const WARMUP_S = 2;
const CONCURRENCY = arg('concurrency', 8);

if (process.argv.includes('--sink')) {
  // Child: an SMTP server that takes every message and reports counts on request.
  const { SMTPServer } = require('smtp-server');
  let accepted = 0;
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        accepted++;
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }));
  process.on('message', (message) => {
    if (message === 'counts') process.send({ accepted, connections });
  });
} else {
  await main();
}

async function main() {
  const dist = join(root, 'dist');
  const { createMailTransport } = require(join(dist, 'apps/email/src/delivery/transport/index.js'));
  const { emailEnv } = require(join(dist, 'apps/email/src/config/email.config.js'));
  const { loadConfig } = require(join(dist, 'libs/platform/src/index.js'));

  const sink = fork(fileURLToPath(import.meta.url), ['--sink'], { stdio: 'inherit' });
  const ask = (message) =>
    new Promise((resolveAnswer) => {
      sink.once('message', resolveAnswer);
      if (message) sink.send(message);
    });
  const { port } = await ask();
  const counts = () => ask('counts');

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dkim = {
    domainName: 'sender.example',
    keySelector: 'sb1',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  const paragraph =
    'Your order has shipped and is on its way. Track it any time from your account page. ';
  let sequence = 0;
  const mail = (signed) => ({
    messageId: `em_bench_${++sequence}@sender.example`,
    from: { email: 'news@sender.example', name: 'Sender' },
    to: [{ email: `rcpt${sequence % 1000}@example.com` }],
    cc: [],
    replyTo: [],
    subject: `Order ${sequence} shipped`,
    text: paragraph.repeat(30),
    html: `<html><body>${`<p>${paragraph}</p>`.repeat(30)}</body></html>`,
    headers: { 'X-Campaign': 'bench' },
    attachments: [],
    envelopeFrom: 'bounces@rp.sender.example',
    recipients: [`rcpt${sequence % 1000}@example.com`],
    dkim: signed ? dkim : undefined,
  });

  const results = [];
  for (const signed of [false, true]) {
    const transport = createMailTransport(
      loadConfig(emailEnv, {
        ENCRYPTION_KEY: 'bench-encryption-key-0123456789',
        SMTP_RELAY_URL: `smtp://127.0.0.1:${port}`,
        EMAIL_DESTINATION_CONCURRENCY: String(CONCURRENCY),
        EMAIL_DELIVERY_CONCURRENCY: String(Math.max(CONCURRENCY, 32)),
      }),
    );
    const run = async (seconds) => {
      const deadline = Date.now() + seconds * 1000;
      let delivered = 0;
      let failed = 0;
      const worker = async () => {
        while (Date.now() < deadline) {
          const [result] = await transport.deliver(mail(signed));
          if (result.outcome === 'delivered') delivered++;
          else failed++;
        }
      };
      const started = process.hrtime.bigint();
      const cpuBefore = process.cpuUsage();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      return { delivered, failed, elapsedS, cpuS: (cpu.user + cpu.system) / 1e6 };
    };
    await run(WARMUP_S);
    const before = await counts();
    const measured = await run(DURATION_S);
    const after = await counts();
    await transport.close();
    if (measured.failed > 0 || after.accepted - before.accepted !== measured.delivered) {
      console.error(
        `FAILED: ${measured.failed} not delivered; sink accepted ${after.accepted - before.accepted} of ${measured.delivered}`,
      );
      sink.kill();
      process.exit(1);
    }
    results.push({
      label: signed ? 'DKIM signed (RSA-2048)' : 'unsigned',
      perSecond: measured.delivered / measured.elapsedS,
      cpuPerMessageMs: (measured.cpuS * 1000) / measured.delivered,
      messages: measured.delivered,
      connections: after.connections - before.connections,
    });
  }
  sink.kill();

  console.log(
    `SMTP transport through a relay into a local smtp-server sink: ${CONCURRENCY} deliveries in flight, ${DURATION_S} s measured after ${WARMUP_S} s warm-up`,
  );
  console.log(
    `${os.cpus()[0].model}, ${os.cpus().length} CPUs, Node ${process.version}, ${new Date().toISOString()}`,
  );
  console.log('| messages | msg/s | transport CPU per message | new connections |');
  console.log('|---|---:|---:|---:|');
  for (const result of results) {
    console.log(
      `| ${result.label} | ${Math.round(result.perSecond).toLocaleString('en')} | ${result.cpuPerMessageMs.toFixed(2)} ms | ${result.connections} (${result.messages.toLocaleString('en')} messages) |`,
    );
  }
}
