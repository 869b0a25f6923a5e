import { createServer, Packet } from 'dns2';
import { freePort } from '@switchboard/platform';

// dns2 3.0.0 (the last to support Node 20) has Packet.RCODE at run time but not in its types.
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const; // RFC 1035 4.1.1

export type DnsRecord =
  | { type: 'A'; address: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'TXT'; data: string }
  | { type: 'CNAME'; domain: string };

/**
 * The answer that publishes one record of a sending domain's `dns_records` as a DNS provider
 * would: a TXT's content, a CNAME's target, an MX's `<priority> <host>`.
 */
export function publishedAs(record: { type: 'TXT' | 'CNAME' | 'MX'; value: string }): DnsRecord {
  switch (record.type) {
    case 'TXT':
      return { type: 'TXT', data: record.value };
    case 'CNAME':
      return { type: 'CNAME', domain: record.value };
    case 'MX': {
      const [priority, exchange] = record.value.trim().split(/\s+/);
      return { type: 'MX', priority: Number(priority), exchange };
    }
  }
}

/** How the server answers one name: its records, or a failure mode. */
export type DnsAnswer = DnsRecord[] | 'servfail' | 'nxdomain' | 'silent';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  /** Replaces what the server answers for a name (lowercased, no trailing dot). */
  set(name: string, answer: DnsAnswer): void;
  stop(): Promise<void>;
}

const TYPES: Record<DnsRecord['type'], number> = {
  A: Packet.TYPE.A,
  MX: Packet.TYPE.MX,
  TXT: Packet.TYPE.TXT,
  CNAME: Packet.TYPE.CNAME,
};

/**
 * A real DNS server on UDP for tests (dns2): names the test sets answer with their records,
 * `servfail`, `nxdomain`, or not at all (`silent`, a time-out for the client); a name it does
 * not know is NXDOMAIN. TXT data longer than 255 characters goes out in 255-character strings,
 * as real zones publish DKIM keys.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, DnsAnswer>();
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const answer = zone.get(name) ?? 'nxdomain';
      if (answer === 'silent') return;
      if (answer === 'servfail' || answer === 'nxdomain') {
        response.header.rcode = answer === 'servfail' ? RCODE.SERVFAIL : RCODE.NXDOMAIN;
        void send(response);
        return;
      }
      for (const record of answer) {
        if (TYPES[record.type] !== question.type) continue;
        const { type, ...fields } = record;
        const data = type === 'TXT' ? { data: record.data.match(/.{1,255}/gs) ?? [''] } : {};
        // dns2's types ask for an encoder on each record; its packet writer encodes plain objects.
        const resource = {
          name: question.name,
          type: TYPES[type],
          class: Packet.CLASS.IN,
          ttl: 60,
        };
        response.answers.push({ ...resource, ...fields, ...data } as unknown as Packet.Resource);
      }
      void send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${port}`,
    set: (name, answer) => zone.set(name.toLowerCase().replace(/\.$/, ''), answer),
    stop: () => server.close(),
  };
}
