import { promises as dns } from 'node:dns';

/**
 * The resolver every DNS lookup of the platform goes through (MX for direct delivery, TXT and
 * CNAME for domain verification): `DNS_SERVERS` points it at the operator's servers, or a test's
 * local one; unset, the system's. Each query gives up after `timeoutMs` and is tried twice.
 */
export function dnsResolver(servers: string | undefined, timeoutMs: number): dns.Resolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  const list = (servers ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  if (list.length > 0) resolver.setServers(list);
  return resolver;
}

/**
 * DNS answers that say "this name has no such record" as opposed to "the lookup failed": a
 * time-out or SERVFAIL must never be read as "no MX" or "record missing".
 */
export function isDnsNoData(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === dns.NODATA || code === dns.NOTFOUND;
}
