import { NODATA, NOTFOUND } from 'node:dns';
import type { MxRecord } from 'node:dns';
import { isIP } from 'node:net';
import { isDnsNoData } from '@switchboard/platform';

/** The part of `dns.promises.Resolver` the router uses. */
export interface MxResolver {
  resolveMx(name: string): Promise<MxRecord[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

/** Where mail for a domain goes: its hosts in the order to try them, or why nowhere. */
export type MxRoute =
  /** `implicit`: no MX record, the domain is its own host (RFC 5321 section 5.1). */
  | { kind: 'hosts'; hosts: string[]; implicit?: true }
  | { kind: 'bounce'; response: string }
  | { kind: 'defer'; response: string };

/** Addresses of one host, or why it has none. */
export type HostAddresses =
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'none'; reason: string }
  | { kind: 'failed'; reason: string };

/**
 * Where to deliver mail for `domain` (lower-case ASCII), after RFC 5321 section 5.1 and RFC 7505:
 * - MX records: their hosts by preference, hosts of equal preference in random order;
 * - a null MX (a single record, exchange "."): the domain accepts no mail, bounce (a null
 *   record beside real ones, which RFC 7505 forbids, is skipped);
 * - no MX record (NODATA): the domain itself is the only host (its A/AAAA);
 * - the domain does not exist (NXDOMAIN): bounce;
 * - any other failure (time-out, SERVFAIL, refused): defer. A lookup that failed never reads as
 *   "no MX".
 * An address literal (`[192.0.2.1]`) is its own host.
 */
export async function resolveMxRoute(resolver: MxResolver, domain: string): Promise<MxRoute> {
  const literal = /^\[(?:ipv6:)?([^\]]+)\]$/i.exec(domain);
  if (literal && isIP(literal[1])) return { kind: 'hosts', hosts: [literal[1]] };
  let records: MxRecord[];
  try {
    records = await resolver.resolveMx(domain);
  } catch (error) {
    const code = dnsCode(error);
    if (code === NODATA) return { kind: 'hosts', hosts: [domain], implicit: true };
    if (code === NOTFOUND)
      return { kind: 'bounce', response: `5.1.2 ${domain} does not exist (DNS NXDOMAIN)` };
    return { kind: 'defer', response: `4.4.3 MX lookup of ${domain} failed: ${code}` };
  }
  if (records.length === 0) return { kind: 'hosts', hosts: [domain], implicit: true };
  if (records.length === 1 && isNullExchange(records[0].exchange))
    return {
      kind: 'bounce',
      response: `5.1.10 ${domain} accepts no mail (null MX, RFC 7505)`,
    };
  const shuffled = records
    .filter((record) => !isNullExchange(record.exchange))
    .map((record) => ({ record, tie: Math.random() }))
    .sort((a, b) => a.record.priority - b.record.priority || a.tie - b.tie);
  const hosts: string[] = [];
  for (const { record } of shuffled) {
    const host = record.exchange.toLowerCase().replace(/\.$/, '');
    if (!hosts.includes(host)) hosts.push(host);
  }
  return { kind: 'hosts', hosts };
}

/**
 * The addresses of one host, IPv4 first: A and AAAA are asked at once; a host with neither is
 * `none` (skipped like an unreachable one), a host whose lookups failed is `failed`.
 */
export async function resolveHostAddresses(
  resolver: MxResolver,
  host: string,
): Promise<HostAddresses> {
  if (isIP(host)) return { kind: 'addresses', addresses: [host] };
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses = [
    ...(v4.status === 'fulfilled' ? v4.value : []),
    ...(v6.status === 'fulfilled' ? v6.value : []),
  ];
  if (addresses.length > 0) return { kind: 'addresses', addresses };
  const failures = [v4, v6].flatMap((answer) =>
    answer.status === 'rejected' && !isDnsNoData(answer.reason) ? [dnsCode(answer.reason)] : [],
  );
  return failures.length === 0
    ? { kind: 'none', reason: `${host} has no A or AAAA record` }
    : { kind: 'failed', reason: `address lookup of ${host} failed: ${failures.join('/')}` };
}

/** RFC 7505: a null MX names the root; Node gives its exchange as "" (some resolvers as "."). */
function isNullExchange(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

function dnsCode(error: unknown): string {
  return (error as { code?: string }).code ?? 'EUNKNOWN';
}
