import { promises as dns } from 'node:dns';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { env } from '../config/env-schema';
import type { EnvVar } from '../config/env-schema';

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

/** One DNS server as the resolver takes it: an address, with a port after `:` (`[v6]:port`). */
function isDnsServer(entry: string): boolean {
  if (isIP(entry)) return true;
  const v6 = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry);
  if (v6) return isIPv6(v6[1]) && Number(v6[2]) <= 65535;
  const v4 = /^([^:]+):(\d{1,5})$/.exec(entry);
  return !!v4 && isIPv4(v4[1]) && Number(v4[2]) <= 65535;
}

/**
 * `DNS_SERVERS` of a service, checked when the configuration is read: the resolver takes
 * addresses only, and a host name there stopped the service with an error at its first use.
 */
export function dnsServersEnv(use: string): EnvVar<string | undefined> {
  return {
    ...env.optionalString({
      description: `comma-separated DNS servers (IP address, IP:port, or [IPv6]:port) ${use}; unset: the system resolver`,
    }),
    parse: (raw) => {
      const bad = raw
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .find((entry) => !isDnsServer(entry));
      if (bad !== undefined)
        throw new Error(
          `must be IP addresses, each with an optional port (got ${JSON.stringify(bad)}: host names are not accepted)`,
        );
      return raw || undefined;
    },
  };
}
