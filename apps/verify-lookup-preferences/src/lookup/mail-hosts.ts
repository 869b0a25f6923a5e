import type { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isDnsNoData } from '@switchboard/platform';

/**
 * What DNS says of a domain as a mail destination: `accepts` (an MX host with an address, or an
 * address to fall back to per RFC 5321 5.1 when it has no MX), `refuses` (no such domain, a null
 * MX per RFC 7505, MX hosts none of which has an address, or no MX and no address), or `unknown` when the lookup itself failed (a time-out
 * or SERVFAIL is never read as "no mail hosts").
 */
export type MailHostsVerdict = 'accepts' | 'refuses' | 'unknown';

/** MX hosts asked for their addresses, the most preferred first: enough to find one usable. */
const HOSTS_CHECKED = 3;

export async function mailHostsOf(
  resolver: dns.Resolver,
  domain: string,
): Promise<MailHostsVerdict> {
  try {
    const records = await resolver.resolveMx(domain);
    const isNullMx = records.length === 1 && ['', '.'].includes(records[0].exchange);
    if (isNullMx) return 'refuses';
    if (records.length > 0) return usableHosts(resolver, records);
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOTFOUND') return 'refuses';
    if (!isDnsNoData(err)) return 'unknown';
  }
  return addressesOf(resolver, [domain]);
}

/**
 * MX records name hosts, and mail goes only where one of them has an address (RFC 5321 5.1:
 * MX records none of which is usable are an error, not a reason to try the domain itself).
 * An IP literal or `localhost` in an MX (a way of saying "no mail") is never usable.
 */
function usableHosts(
  resolver: dns.Resolver,
  records: Array<{ exchange: string; priority: number }>,
): Promise<MailHostsVerdict> {
  const hosts = [...records]
    .sort((a, b) => a.priority - b.priority)
    .map((record) => record.exchange.toLowerCase().replace(/\.$/, ''))
    .filter((host) => host && host !== 'localhost' && !isIP(host));
  return addressesOf(resolver, [...new Set(hosts)].slice(0, HOSTS_CHECKED));
}

/** `accepts` when one of `hosts` has an A or AAAA record; all asked at once. */
async function addressesOf(resolver: dns.Resolver, hosts: string[]): Promise<MailHostsVerdict> {
  if (hosts.length === 0) return 'refuses';
  const addresses = await Promise.allSettled(
    hosts.flatMap((host) => [resolver.resolve4(host), resolver.resolve6(host)]),
  );
  if (addresses.some((found) => found.status === 'fulfilled' && found.value.length > 0)) {
    return 'accepts';
  }
  const failed = addresses.some(
    (found) => found.status === 'rejected' && !isDnsNoData(found.reason),
  );
  return failed ? 'unknown' : 'refuses';
}
