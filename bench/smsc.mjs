#!/usr/bin/env node
// The SMSC of bench/sms.bench.mjs, in its own process: two instances of the test SMSC
// (libs/testing, from dist/), one the platform binds to and one the bare `smpp` client binds to,
// so each side's receipts go to its own session. Prints one JSON line with their URLs, then takes
// commands over IPC ({id, cmd, ...} -> {id, result} or {id, error}):
//   count    {which, prefix}                 reassembled messages whose text starts with prefix
//   rate     {which, prefix}                 those submits per second, first to last as received
//   stop, restart {which}                    one SMSC away and back (on the same port)
//   receipts {which, prefix, concurrency}    a DELIVRD receipt for each of those submits, `concurrency`
//                                            deliver_sm in flight; answers the ms until every one was
//                                            answered by the bound session
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { startTestSmsc } = require(join(root, 'dist/libs/testing/src/index.js'));

const smscs = {
  platform: await startTestSmsc({ systemId: 'platform', password: 'bench' }),
  bare: await startTestSmsc({ systemId: 'bare', password: 'bench' }),
};

const commands = {
  count: ({ which, prefix }) =>
    smscs[which].messages.filter((m) => m.text.startsWith(prefix)).length,
  /** Stops one SMSC (its bound session dropped, binds refused) until `restart`. */
  stop: ({ which }) => smscs[which].stop(),
  restart: ({ which }) => smscs[which].restart(),
  /** Submits per second as the SMSC saw them: from the first to the last submit with `prefix`. */
  rate({ which, prefix }) {
    const times = smscs[which].submits
      .filter((submit) => submit.text.startsWith(prefix))
      .map((submit) => submit.receivedAt);
    const span = Math.max(...times) - Math.min(...times);
    return { submits: times.length, perSecond: ((times.length - 1) / span) * 1000 };
  },
  async receipts({ which, prefix, concurrency }) {
    const smsc = smscs[which];
    const submits = smsc.submits.filter((submit) => submit.text.startsWith(prefix));
    const started = process.hrtime.bigint();
    let next = 0;
    const worker = async () => {
      while (next < submits.length) {
        const submit = submits[next++];
        await smsc.sendReceipt(submit, { stat: 'DELIVRD', err: '000' });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { receipts: submits.length, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  },
};

process.on('message', async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, result: await commands[cmd](args) });
  } catch (err) {
    process.send({ id, error: String(err?.stack ?? err) });
  }
});
process.on('SIGTERM', async () => {
  await Promise.all(Object.values(smscs).map((smsc) => smsc.stop()));
  process.exit(0);
});
process.stdout.write(`${JSON.stringify({ platform: smscs.platform.url, bare: smscs.bare.url })}\n`);
