#!/usr/bin/env node
// The bare ceiling of SMPP submits in bench/sms.bench.mjs: the `smpp` package's client alone,
// one transceiver bind, a window of WINDOW submits in flight, submitting COUNT messages whose
// texts are `<prefix> <n>` (one GSM 7-bit part each, encoded by the platform's own encodeSms, the
// same bytes the platform submits), answering the SMSC's deliver_sm at once. No queue, no
// database, no retries: what one bind can carry. Prints one JSON line {submitted, ms} and stays
// bound (for the receipts ceiling) until SIGTERM.
//   node bench/bare-smpp.mjs <smpp-url> <count> <prefix> [window]
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const smpp = require('smpp');
const { encodeSms } = require(join(root, 'dist/libs/contracts/src/index.js'));

const [url, countArg, prefix, windowArg] = process.argv.slice(2);
const count = Number(countArg);
const window = Number(windowArg ?? 10);
if (!url || !Number.isInteger(count) || count < 1 || !prefix || !(window >= 1)) {
  process.stderr.write('usage: node bench/bare-smpp.mjs <smpp-url> <count> <prefix> [window]\n');
  process.exit(2);
}
const { username, password, hostname, port } = new URL(url);
const session = smpp.connect({ url: `smpp://${hostname}:${port}` });
session.on('error', (err) => {
  process.stderr.write(`bare-smpp: ${err.message}\n`);
  process.exit(1);
});
session.on('deliver_sm', (pdu) => session.send(pdu.response()));
session.on('enquire_link', (pdu) => session.send(pdu.response()));
await new Promise((done, fail) =>
  session.bind_transceiver(
    { system_id: decodeURIComponent(username), password: decodeURIComponent(password) },
    (pdu) => (pdu.command_status === 0 ? done() : fail(new Error(`bind: ${pdu.command_status}`))),
  ),
);

const parts = Array.from({ length: count }, (_, n) => {
  const encoded = encodeSms(`${prefix} ${n}`, { reference: n % 256 });
  return { short_message: encoded.parts[0], data_coding: encoded.dataCoding };
});
const started = process.hrtime.bigint();
let next = 0;
await new Promise((done, fail) => {
  let answered = 0;
  const submit = () => {
    const n = next++;
    session.submit_sm(
      {
        source_addr: 'BareBench',
        source_addr_ton: 5,
        source_addr_npi: 0,
        destination_addr: `3161${String(n).padStart(7, '0')}`,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        registered_delivery: 1,
        ...parts[n],
      },
      (pdu) => {
        if (pdu.command_status !== 0) return fail(new Error(`submit_sm: ${pdu.command_status}`));
        answered += 1;
        if (answered === count) done();
        else if (next < count) submit();
      },
    );
  };
  for (let i = 0; i < Math.min(window, count); i++) submit();
});
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${JSON.stringify({ submitted: count, ms })}\n`);
process.on('SIGTERM', () => session.close(() => process.exit(0)));
