#!/usr/bin/env node
// An SMSC (an SMS carrier's SMPP server) for trying SMS on one machine: start Switchboard with the
// SMPP_URL it prints and every SMS "arrives" here instead of at a carrier. It prints each message
// (from, to, text, parts) and answers each part with a DELIVRD receipt, so the message reads
// `delivered`. Nothing is stored or forwarded. It is the test SMSC of libs/testing, from dist/.
// Usage: npm run dev:smsc [-- --port 2775]   (or DEV_SMSC_PORT; default 2775, the SMPP port)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { port: { type: 'string' } } });
const port = Number(values.port ?? process.env.DEV_SMSC_PORT ?? 2775);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write(`--port must be a port number (1 to 65535), not ${values.port}\n`);
  process.exit(2);
}

// A checkout that has never been built (or was built before the test SMSC existed) builds first.
if (!existsSync(join(root, 'dist/libs/testing/src/smsc/test-smsc.js'))) {
  const build = spawnSync(process.execPath, [join(root, 'tools/build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const { startTestSmsc } = createRequire(import.meta.url)(
  join(root, 'dist/libs/testing/src/index.js'),
);

const say = (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
/** An address as the carrier sees it: `+` and digits for an international number (TON 1). */
const address = ({ addr, ton }) => (ton === 1 ? `+${addr}` : addr);
const ENCODINGS = { 0: 'GSM-7', 1: 'IA5', 3: 'Latin-1', 8: 'UCS-2' };

let printed = 0;
let smsc;
let bound = 0;
let refused = 0;
/** Whether Switchboard is bound, so a wrong SMPP_URL shows here rather than as silence. */
function sayBinds() {
  if (smsc.counters.bindsRefused > refused)
    say('a bind was refused: SMPP_URL must carry switchboard:secret as user and password');
  refused = smsc.counters.bindsRefused;
  if (smsc.bound() !== bound) say(smsc.bound() ? 'Switchboard is bound' : 'Switchboard unbound');
  bound = smsc.bound();
}
try {
  smsc = await startTestSmsc({
    port,
    // Called as each part is recorded: the message it completes (if any) is printed first.
    receipts: () => {
      sayBinds();
      for (const message of smsc.messages.slice(printed)) {
        const [first] = message.parts;
        const parts = `${message.parts.length} part${message.parts.length === 1 ? '' : 's'}`;
        const encoding = ENCODINGS[first.dataCoding] ?? `data_coding ${first.dataCoding}`;
        say(
          `SMS from ${address(first.source)} to ${address(first.destination)} (${parts}, ${encoding}): ` +
            JSON.stringify(message.text),
        );
      }
      printed = smsc.messages.length;
      return { stat: 'DELIVRD', delayMs: 200 };
    },
  });
} catch (err) {
  process.stderr.write(`cannot listen on 127.0.0.1:${port}: ${err.message}\n`);
  process.exit(1);
}
process.stdout.write(
  `SMSC on 127.0.0.1:${smsc.port}; start Switchboard with SMPP_URL=${smsc.url}\n` +
    'Each message is printed here and answered with a DELIVRD receipt.\n',
);

setInterval(sayBinds, 250).unref();

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void smsc.stop().then(() => process.exit(0)));
