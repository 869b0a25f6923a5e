import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level domain is letters (or an IDN A-label), never digits: that rules out IPv4 too. */
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Second-level public suffixes under which a registered domain has three labels. Only used to
 * write each record's zone-relative `name`; `host` is always the full name, and verification never
 * depends on this list.
 */
const TWO_LABEL_SUFFIXES = new Set([
  'ac.uk', 'co.uk', 'gov.uk', 'ltd.uk', 'me.uk', 'net.uk', 'org.uk', 'plc.uk', 'sch.uk',
  'com.au', 'edu.au', 'gov.au', 'net.au', 'org.au', 'id.au',
  'co.nz', 'net.nz', 'org.nz', 'govt.nz', 'ac.nz',
  'ac.jp', 'co.jp', 'ne.jp', 'or.jp', 'go.jp',
  'co.za', 'org.za', 'net.za', 'gov.za', 'ac.za',
  'com.br', 'net.br', 'org.br', 'gov.br',
  'com.cn', 'net.cn', 'org.cn', 'gov.cn', 'edu.cn',
  'com.mx', 'org.mx', 'com.ar', 'com.co', 'com.pe', 'com.tr', 'com.ua', 'com.pl',
  'co.in', 'net.in', 'org.in', 'firm.in', 'gen.in',
  'co.il', 'org.il', 'co.kr', 'or.kr', 'co.th', 'in.th', 'co.id', 'or.id',
  'com.sg', 'com.hk', 'com.tw', 'com.my', 'com.ph', 'com.vn', 'com.pk', 'com.ng', 'com.eg',
]); // prettier-ignore

export type NameCheck = { ok: true; value: string } | { ok: false; message: string };

/**
 * A sending domain as stored: trimmed, lowercased, without a trailing dot, an IDN in its ASCII
 * (A-label) form; at most 253 characters, at least two labels, every label a hostname label, a
 * top-level domain of letters. IP addresses, single labels, URLs and addresses are refused with a
 * message saying why.
 */
export function normalizeDomainName(input: string): NameCheck {
  let name = input.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (!name) return { ok: false, message: 'must not be blank' };
  if (isIP(name) || isIP(name.replace(/^\[|\]$/g, '')))
    return { ok: false, message: 'must be a domain name, not an IP address' };
  if (/[/:@?#\s]/.test(name))
    return {
      ok: false,
      message: 'must be a bare domain name (like mail.example.com): no scheme, path, port or @',
    };
  if (/[^\x20-\x7e]/.test(name)) {
    const ascii = domainToASCII(name);
    if (!ascii) return { ok: false, message: 'is not a valid internationalised domain name' };
    name = ascii;
  }
  if (name.length > 253) return { ok: false, message: 'must be at most 253 characters' };
  const labels = name.split('.');
  if (labels.length < 2)
    return {
      ok: false,
      message: 'must be a fully qualified domain name with at least two labels (mail.example.com)',
    };
  for (const label of labels) {
    if (!LABEL.test(label))
      return {
        ok: false,
        message: label
          ? `label "${label.slice(0, 63)}" is not valid: letters, digits and inner hyphens, 1 to 63 characters`
          : 'must not contain empty labels (..)',
      };
  }
  if (!TOP_LEVEL.test(labels[labels.length - 1]))
    return { ok: false, message: 'must end in a top-level domain made of letters' };
  return { ok: true, value: name };
}

/** The return-path name part: one hostname label, lowercased; the full host at most 253. */
export function normalizeReturnPathName(input: string, domain: string): NameCheck {
  const name = input.trim().toLowerCase();
  if (!LABEL.test(name))
    return {
      ok: false,
      message: 'must be one hostname label: letters, digits and inner hyphens, 1 to 63 characters',
    };
  if (name.length + 1 + domain.length > 253)
    return { ok: false, message: 'makes the return-path host longer than 253 characters' };
  return { ok: true, value: name };
}

/** Whether `name` is `parent` or one of its subdomains. */
export function isWithin(name: string, parent: string): boolean {
  return name === parent || name.endsWith(`.${parent}`);
}

/**
 * The zone a record of `domain` most likely belongs in (its registered domain): the last two
 * labels, or three under a well-known second-level suffix such as `co.uk`.
 */
function registeredDomain(domain: string): string {
  const labels = domain.split('.');
  const lastTwo = labels.slice(-2).join('.');
  const take = TWO_LABEL_SUFFIXES.has(lastTwo) && labels.length > 2 ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** A record's name relative to the zone (`@` at the apex), as DNS providers' `Name` fields want it. */
export function relativeName(host: string, domain: string): string {
  const zone = registeredDomain(domain);
  if (host === zone) return '@';
  return host.endsWith(`.${zone}`) ? host.slice(0, -(zone.length + 1)) : host;
}

/** The domains whose `_dmarc` record may cover `domain`: itself, then each parent above the top level. */
export function dmarcCandidates(domain: string): string[] {
  const labels = domain.split('.');
  const candidates: string[] = [];
  for (let i = 0; i <= labels.length - 2 && candidates.length < 8; i++)
    candidates.push(labels.slice(i).join('.'));
  return candidates;
}
