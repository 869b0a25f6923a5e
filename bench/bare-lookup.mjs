#!/usr/bin/env node
// The bare baseline of bench/lookup.bench.mjs: one Fastify route doing the same
// `libphonenumber-js/max` parse as the platform's phone number lookup, the same JSON out:
//   POST /lookup/phone-number {phone_number} -> {phone_number, country_code, flags, line_type}
// No authentication, no validation, no transport hop: that is the point of a bare baseline.
// Usage: node bench/bare-lookup.mjs <port>   (0 picks a free port). Listens on 127.0.0.1 only
// and prints `bare-lookup listening at http://127.0.0.1:<port>` once ready. SIGTERM stops it.
import Fastify from 'fastify';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`usage: node bench/bare-lookup.mjs <port>\n`);
  process.exit(2);
}

const LINE_TYPES = { MOBILE: 'mobile', FIXED_LINE: 'fixed_line', TOLL_FREE: 'toll_free' };
const app = Fastify({ logger: false });
app.post('/lookup/phone-number', async (request, reply) => {
  const parsed = parsePhoneNumberFromString(String(request.body?.phone_number ?? ''));
  if (!parsed || !parsed.isPossible()) return reply.code(422).send({ error: 'invalid' });
  const kind = parsed.isValid() ? parsed.getType() : undefined;
  const answer = { phone_number: parsed.number, flags: [], line_type: LINE_TYPES[kind] ?? 'other' };
  if (parsed.country) answer.country_code = parsed.country;
  return answer;
});

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare-lookup listening at http://127.0.0.1:${app.server.address().port}\n`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
