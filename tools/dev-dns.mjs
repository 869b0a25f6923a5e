#!/usr/bin/env node
// A DNS server for trying Switchboard on one machine: it publishes the dns_records of every sending
// domain of your workspace, as a DNS provider would once you had added them, so that
// `POST /v1/email/domains/{id}/verify` can succeed locally. Start Switchboard with
// DNS_SERVERS=127.0.0.1:5300 to verify through it. Names it does not publish are NXDOMAIN: it is
// not a resolver, so do not leave DNS_SERVERS pointing at it for direct-to-MX delivery.
// Usage: BIRD_API_KEY=bk_... npm run dev:dns   (DEV_DNS_PORT, default 5300; SWITCHBOARD_URL,
// default http://127.0.0.1:$PORT or 8080)
import { URLSearchParams } from 'node:url';
import dns2 from 'dns2';

const { Packet } = dns2;
const apiKey = process.env.BIRD_API_KEY;
if (!apiKey) {
  process.stderr.write(
    'Set BIRD_API_KEY to an API key of the workspace whose domains to publish.\n',
  );
  process.exit(1);
}
const base = process.env.SWITCHBOARD_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const port = Number(process.env.DEV_DNS_PORT ?? 5300);

/** host (lowercase, no trailing dot) -> its records, read from the API at most once a second. */
let zone = new Map();
let readAt = 0;
async function currentZone() {
  if (Date.now() - readAt < 1000) return zone;
  const next = new Map();
  let cursor;
  do {
    const query = new URLSearchParams({
      limit: '100',
      ...(cursor ? { starting_after: cursor } : {}),
    });
    const response = await fetch(`${base}/v1/email/domains?${query}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const page = await response.json();
    if (!response.ok)
      throw new Error(`${response.status} ${page.error?.code}: ${page.error?.message}`);
    for (const domain of page.data)
      for (const record of domain.dns_records) {
        const host = record.host.toLowerCase().replace(/\.$/, '');
        next.set(host, [...(next.get(host) ?? []), record]);
      }
    cursor = page.next_cursor;
  } while (cursor);
  zone = next;
  readAt = Date.now();
  return zone;
}

const server = dns2.createServer({
  udp: true,
  handle: (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    currentZone().then(
      (records) => {
        const found = records.get(name);
        if (!found) response.header.rcode = Packet.RCODE.NXDOMAIN;
        for (const record of found ?? []) {
          const type = Packet.TYPE[record.type];
          if (type !== question.type) continue;
          const resource = { name: question.name, type, class: Packet.CLASS.IN, ttl: 60 };
          // TXT data in 255-character strings, as zones publish DKIM keys.
          if (record.type === 'TXT') resource.data = record.value.match(/.{1,255}/gs) ?? [''];
          else if (record.type === 'CNAME') resource.domain = record.value;
          else continue;
          response.answers.push(resource);
        }
        send(response);
      },
      (err) => {
        process.stderr.write(`cannot read the domains from ${base}: ${err.message}\n`);
        response.header.rcode = Packet.RCODE.SERVFAIL;
        send(response);
      },
    );
  },
});
server.on('listening', () =>
  process.stdout.write(
    `DNS for your workspace's sending domains on 127.0.0.1:${port} (UDP); start Switchboard with DNS_SERVERS=127.0.0.1:${port}\n`,
  ),
);
await server.listen({ udp: { port, address: '127.0.0.1', type: 'udp4' } });
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void server.close().then(() => process.exit(0)));
