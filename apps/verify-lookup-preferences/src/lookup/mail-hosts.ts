import type { promises as dns } from 'node:dns';
import { isDnsNoData } from '@switchboard/platform';

/**
 * What DNS says of a domain as a mail destination: `accepts` (MX hosts, or an address to fall
 * back to per RFC 5321 5.1 when it has no MX), `refuses` (no such domain, a null MX per
 * RFC 7505, or no MX and no address), or `unknown` when the lookup itself failed (a time-out
 * or SERVFAIL is never read as "no mail hosts").
 */
export type MailHostsVerdict = 'accepts' | 'refuses' | 'unknown';

export async function mailHostsOf(
  resolver: dns.Resolver,
  domain: string,
): Promise<MailHostsVerdict> {
  try {
    const records = await resolver.resolveMx(domain);
    const isNullMx = records.length === 1 && ['', '.'].includes(records[0].exchange);
    if (isNullMx) return 'refuses';
    if (records.length > 0) return 'accepts';
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOTFOUND') return 'refuses';
    if (!isDnsNoData(err)) return 'unknown';
  }
  const addresses = await Promise.allSettled([
    resolver.resolve4(domain),
    resolver.resolve6(domain),
  ]);
  if (addresses.some((found) => found.status === 'fulfilled' && found.value.length > 0)) {
    return 'accepts';
  }
  const failed = addresses.some(
    (found) => found.status === 'rejected' && !isDnsNoData(found.reason),
  );
  return failed ? 'unknown' : 'refuses';
}
