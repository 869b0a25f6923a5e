import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach unless WEBHOOKS_ALLOW_PRIVATE_URLS is set: loopback,
 * private, link-local, carrier-grade NAT, multicast, documentation and reserved ranges, in IPv4
 * and IPv6 (IPv4-mapped IPv6 addresses are checked as IPv4; the IPv6 forms that embed an IPv4
 * address, compatible, translated, 6to4 and Teredo, are refused whole).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) addresses.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Teredo and 6to4 embed an IPv4 address the tunnel may reach.
  ['2001::', 32],
  ['2002::', 16],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The lookups the policy needs (a `dns.promises.Resolver` has them; tests give their own). */
export interface HostResolver {
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
}

/** Why a URL may not be a webhook target; undefined when it may. */
export type UrlProblem = string | undefined;

/** The host of a URL as a resolver or `isIP` takes it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The rules of a webhook URL at create and update: HTTPS, and every address its host resolves
 * to public. With `allowPrivate` (local development, tests) http and any address are accepted
 * and nothing is looked up. Answers the reason it is refused, or undefined.
 */
export async function urlProblem(
  raw: string,
  allowPrivate: boolean,
  resolver: HostResolver,
): Promise<UrlProblem> {
  // The URL parser drops tabs and line breaks and encodes spaces: the URL stored would not be
  // the one called.
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (url.port === '0') return 'must not use port 0';
  if (allowPrivate) {
    return ['http:', 'https:'].includes(url.protocol) ? undefined : 'must use https';
  }
  if (url.protocol !== 'https:') return 'must use https';
  const host = hostOf(url);
  if (isIP(host)) return isPrivateAddress(host) ? 'must reach a public address' : undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must reach a public address';
  const addresses = await resolveAll(host, resolver);
  if (addresses === 'failed') return 'its host could not be resolved; try again';
  if (addresses.length === 0) return 'its host does not resolve';
  return addresses.some(isPrivateAddress) ? 'must reach a public address' : undefined;
}

/** A and AAAA addresses of `host`; `failed` when the lookup itself failed (time-out, SERVFAIL). */
export async function resolveAll(
  host: string,
  resolver: HostResolver,
): Promise<string[] | 'failed'> {
  const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses: string[] = [];
  let failed = false;
  for (const answer of answers) {
    if (answer.status === 'fulfilled') addresses.push(...answer.value);
    else if (!['ENODATA', 'ENOTFOUND'].includes((answer.reason as { code?: string }).code ?? ''))
      failed = true;
  }
  return addresses.length === 0 && failed ? 'failed' : addresses;
}
