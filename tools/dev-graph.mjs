#!/usr/bin/env node
// Meta's WhatsApp Cloud API on one machine, for trying WhatsApp without a Meta account: start
// Switchboard with the settings it prints, connect the number it holds, and every message sent
// "arrives" here. It prints each one and answers with signed `sent`, `delivered` and `read`
// status webhooks to Switchboard; a line typed here (`+31612345678 hello`) arrives at
// Switchboard as that person's inbound WhatsApp message, which opens the 24-hour window.
// It is the Graph stand-in of libs/testing, from dist/. Nothing is stored or forwarded.
// Usage: npm run dev:graph [-- --port 4100 --webhook http://127.0.0.1:8080/webhooks/whatsapp]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { port: { type: 'string' }, webhook: { type: 'string' } },
});
const port = Number(values.port ?? process.env.DEV_GRAPH_PORT ?? 4100);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write(`--port must be a port number (1 to 65535), not ${values.port}\n`);
  process.exit(2);
}
const webhookUrl =
  values.webhook ?? `http://127.0.0.1:${process.env.PORT ?? 8080}/webhooks/whatsapp`;

if (!existsSync(join(root, 'dist/libs/testing/src/graph-stand-in.js'))) {
  const build = spawnSync(process.execPath, [join(root, 'tools/build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const testing = createRequire(import.meta.url)(join(root, 'dist/libs/testing/src/index.js'));

const APP_SECRET = 'dev-app-secret';
const VERIFY_TOKEN = 'dev-verify-token';
const ACCOUNT = { wabaId: '100000000000001', name: 'Dev Business' };
const NUMBER = {
  phoneNumberId: '100000000000011',
  wabaId: ACCOUNT.wabaId,
  displayPhoneNumber: '+1 555-010-0001',
  verifiedName: 'Dev Business',
  pin: '123456',
};
const say = (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

let graph;
try {
  graph = await testing.startGraphStandIn({ port, accessToken: 'dev-graph-token' });
} catch (err) {
  process.stderr.write(`cannot listen on 127.0.0.1:${port}: ${err.message}\n`);
  process.exit(1);
}
graph.addAccount(ACCOUNT);
graph.addNumber(NUMBER);
graph.addTemplate(ACCOUNT.wabaId, {
  name: 'order_update',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped.' }],
});

process.stdout.write(
  `Graph API stand-in on ${graph.url}. Start Switchboard with:\n` +
    `  WHATSAPP_GRAPH_URL=${graph.url} WHATSAPP_ACCESS_TOKEN=${graph.accessToken} ` +
    `WHATSAPP_APP_SECRET=${APP_SECRET} WHATSAPP_VERIFY_TOKEN=${VERIFY_TOKEN}\n` +
    `It holds business account ${ACCOUNT.wabaId} with number ${NUMBER.displayPhoneNumber} ` +
    `(phone id ${NUMBER.phoneNumberId}, PIN ${NUMBER.pin}) and the template order_update (en_US).\n` +
    `Statuses and inbound messages are posted to ${webhookUrl}. ` +
    'Type "<phone> <text>" to send an inbound message.\n',
);

const post = async (payload) => {
  try {
    const { status } = await graph.postWebhook(webhookUrl, payload, { appSecret: APP_SECRET });
    if (status !== 200)
      say(`webhook answered ${status}: is Switchboard using WHATSAPP_APP_SECRET?`);
  } catch (err) {
    say(`webhook not delivered (${err.message}): is Switchboard running at ${webhookUrl}?`);
  }
};
const base = graph.webhookNumber(NUMBER.phoneNumberId);

let printed = 0;
setInterval(() => {
  for (const message of graph.sent.slice(printed)) {
    const { body, wamid } = message;
    if (!wamid) {
      say(`read receipt for ${body.message_id}`);
      continue;
    }
    say(`WhatsApp ${body.type} to ${body.to}: ${JSON.stringify(body[body.type])}`);
    void (async () => {
      for (const status of ['sent', 'delivered', 'read']) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await post(graph.statusPayload({ ...base, wamid, status, recipient: body.to }));
      }
    })();
  }
  printed = graph.sent.length;
}, 200).unref();

createInterface({ input: process.stdin }).on('line', (line) => {
  const match = /^\s*\+?(\d{6,15})\s+(.+)$/.exec(line);
  if (!match) return say('type "<phone in E.164> <text>", e.g. +31612345678 hello');
  void post(graph.inboundTextPayload({ ...base, from: match[1], text: match[2] })).then(() =>
    say(`inbound message from +${match[1]} posted`),
  );
});

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void graph.stop().then(() => process.exit(0)));
