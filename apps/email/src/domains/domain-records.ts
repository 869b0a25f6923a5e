import type { EmailDnsRecord, EmailDomainStatus } from '@switchboard/contracts';
import { relativeName } from './domain-name';

/** What the last DNS check of one record found. */
export type RecordCheck = 'match' | 'mismatch' | 'missing' | 'temporary';

/** A record as `email.domains.records` keeps it: the API's fields plus the last check. */
export interface StoredDnsRecord extends EmailDnsRecord {
  check: RecordCheck | null;
  /** DMARC: the domain whose `_dmarc` record matched (the sending domain or a parent). */
  found_at?: string | null;
}

/** The outcome of looking one record up. */
export interface RecordOutcome {
  check: RecordCheck;
  /** What was found and why it does not match (null on a match). */
  detail: string | null;
  foundAt?: string;
}

/** The answer to one TXT query: every record's strings joined, nothing there, or no answer. */
export type TxtAnswer =
  { kind: 'records'; records: string[] } | { kind: 'none' } | { kind: 'error'; code: string };

/**
 * The answer to one CNAME query: the targets, no CNAME at a name that has other records
 * (`nodata`), no such name (`nxdomain`), or no answer.
 */
export type CnameAnswer =
  | { kind: 'records'; targets: string[] }
  | { kind: 'none'; reason: 'nodata' | 'nxdomain' }
  | { kind: 'error'; code: string };

const DMARC_VALUE = 'v=DMARC1; p=none;';
export const DEFAULT_RETURN_PATH_NAME = 'send';

/** Records every domain needs before it can send; anything else is optional. */
const REQUIRED_PURPOSES = ['dkim', 'return_path', 'dmarc'] as const;

/** The record type each purpose is published as (SDK `DnsRecord.type`). */
export const RECORD_TYPES = {
  dkim: 'TXT',
  dmarc: 'TXT',
  return_path: 'CNAME',
  tracking: 'CNAME',
  inbound_mx: 'MX',
} as const satisfies Record<EmailDnsRecord['purpose'], EmailDnsRecord['type']>;

function dkimHost(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

function dkimValue(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}

function record(
  domain: string,
  fields: Pick<EmailDnsRecord, 'host' | 'value' | 'purpose'>,
  state: EmailDnsRecord['state'] = 'active',
): StoredDnsRecord {
  return {
    type: RECORD_TYPES[fields.purpose],
    name: relativeName(fields.host, domain),
    host: fields.host,
    value: fields.value,
    purpose: fields.purpose,
    state,
    optional: false,
    status: 'pending',
    error: null,
    safe_to_remove: null,
    check: null,
  };
}

/** The return path: a CNAME from `<name>.<domain>` to the platform's return-path host. */
export function returnPathRecord(
  domain: string,
  name: string,
  target: string,
  state: EmailDnsRecord['state'] = 'active',
): StoredDnsRecord {
  return record(
    domain,
    { host: `${name}.${domain}`, value: target, purpose: 'return_path' },
    state,
  );
}

/** The records a new domain publishes: its DKIM key, the return-path CNAME, a DMARC policy. */
export function buildRecords(input: {
  domain: string;
  selector: string;
  publicKey: string;
  returnPathName: string;
  returnPathTarget: string;
}): StoredDnsRecord[] {
  const { domain } = input;
  return [
    record(domain, {
      host: dkimHost(input.selector, domain),
      value: dkimValue(input.publicKey),
      purpose: 'dkim',
    }),
    returnPathRecord(domain, input.returnPathName, input.returnPathTarget),
    record(domain, { host: `_dmarc.${domain}`, value: DMARC_VALUE, purpose: 'dmarc' }),
  ];
}

/** `tag=value; tag=value` (DKIM and DMARC), names lowercased, values trimmed. */
export function parseTags(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    if (!tags.has(name)) tags.set(name, part.slice(at + 1).trim());
  }
  return tags;
}

function shown(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

function temporary(host: string, code: string): RecordOutcome {
  return {
    check: 'temporary',
    detail: `the DNS lookup of ${host} did not complete (${code}); it is not treated as missing and will be retried`,
  };
}

function missing(host: string, kind: string): RecordOutcome {
  return { check: 'missing', detail: `no ${kind} TXT record found at ${host}` };
}

/** The DKIM record at its selector must carry exactly this domain's public key. */
export function matchDkim(host: string, answer: TxtAnswer, expectedValue: string): RecordOutcome {
  if (answer.kind === 'error') return temporary(host, answer.code);
  if (answer.kind === 'none') return missing(host, 'DKIM');
  const expected = parseTags(expectedValue).get('p') ?? '';
  const keys = answer.records
    .map((text) => parseTags(text))
    .filter((tags) => tags.has('p') || tags.get('v') === 'DKIM1');
  if (keys.length === 0)
    return {
      check: 'mismatch',
      detail: `the TXT record at ${host} is not a DKIM key: found ${shown(answer.records[0] ?? '')}`,
    };
  for (const tags of keys) {
    const key = (tags.get('p') ?? '').replace(/\s+/g, '');
    const type = (tags.get('k') ?? 'rsa').toLowerCase();
    if (key === expected && type === 'rsa') return { check: 'match', detail: null };
  }
  const key = (keys[0].get('p') ?? '').replace(/\s+/g, '');
  if (!key)
    return {
      check: 'mismatch',
      detail: `the DKIM record at ${host} has an empty p= (a revoked key), not this domain's key`,
    };
  return {
    check: 'mismatch',
    detail: `the DKIM record at ${host} holds another public key (p=${key.slice(0, 24)}...${key.slice(-8)}); publish this domain's value exactly`,
  };
}

/** A host name as DNS answers compare: lowercased, without the trailing dot. */
function canonicalHost(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The return path: the host must be a CNAME to the platform's return-path host (the CNAME itself,
 * not where a chain of them ends). Its SPF and bounce handling live at the target, so the owner
 * publishes nothing else there; a name with other records (an SPF TXT) and no CNAME is missing.
 */
export function matchReturnPath(
  host: string,
  answer: CnameAnswer,
  expectedTarget: string,
): RecordOutcome {
  if (answer.kind === 'error') return temporary(host, answer.code);
  if (answer.kind === 'none')
    return {
      check: 'missing',
      detail:
        answer.reason === 'nodata'
          ? `no CNAME record found at ${host}: the name has other records (a TXT record, for instance) but no CNAME; replace them with a CNAME to ${expectedTarget}, since a CNAME cannot share its name`
          : `no CNAME record found at ${host}`,
    };
  const expected = canonicalHost(expectedTarget);
  const targets = answer.targets.map(canonicalHost);
  if (targets.includes(expected)) return { check: 'match', detail: null };
  return {
    check: 'mismatch',
    detail: `the CNAME at ${host} points to ${shown(targets[0] ?? '')}, not ${expected}`,
  };
}

const DMARC_POLICIES = new Set(['none', 'quarantine', 'reject']);

/**
 * DMARC: the first `_dmarc` record found walking from the domain up to its parents (the
 * DMARCbis tree walk) decides; any valid `v=DMARC1` policy is enough. `answers` follow
 * `candidates` in order; a walk stops at a lookup that did not complete.
 */
export function matchDmarc(candidates: string[], answers: TxtAnswer[]): RecordOutcome {
  for (let i = 0; i < candidates.length; i++) {
    const host = `_dmarc.${candidates[i]}`;
    const answer = answers[i];
    if (!answer || answer.kind === 'error') return temporary(host, answer?.code ?? 'no answer');
    if (answer.kind === 'none') continue;
    const records = answer.records.filter((text) => /^v\s*=\s*DMARC1\s*(;|$)/.test(text.trim()));
    if (records.length === 0) continue;
    if (records.length > 1)
      return {
        check: 'mismatch',
        detail: `${records.length} DMARC records at ${host}; DMARC ignores them all, keep one`,
      };
    const policy = parseTags(records[0]).get('p')?.toLowerCase();
    if (!policy || !DMARC_POLICIES.has(policy))
      return {
        check: 'mismatch',
        detail: `the DMARC record at ${host} has no valid p= (none, quarantine or reject): found ${shown(records[0].trim())}`,
      };
    return { check: 'match', detail: null, foundAt: candidates[i] };
  }
  return missing(`_dmarc.${candidates[0]}`, 'DMARC');
}

export interface VerificationResult {
  records: StoredDnsRecord[];
  status: EmailDomainStatus;
  /** The active return-path name after a staged one verified and was promoted. */
  returnPathName?: string;
  /** Why the domain is not verified: each failing record's detail. */
  failureReason: string | null;
}

function withOutcome(record: StoredDnsRecord, outcome: RecordOutcome | undefined): StoredDnsRecord {
  if (!outcome) return record;
  switch (outcome.check) {
    case 'match':
      return {
        ...record,
        status: 'verified',
        error: null,
        check: 'match',
        ...(record.purpose === 'dmarc' ? { found_at: outcome.foundAt ?? null } : {}),
      };
    case 'mismatch':
    case 'missing':
      return {
        ...record,
        status: 'failed',
        error: outcome.detail,
        check: outcome.check,
        ...(record.purpose === 'dmarc' ? { found_at: null } : {}),
      };
    case 'temporary':
      // A lookup that did not complete is no evidence either way: the status stays.
      return { ...record, error: outcome.detail, check: 'temporary' };
  }
}

/**
 * Applies one verification run to the records: each checked record takes its outcome; a staged
 * return path that matched replaces the active one (which becomes `deprecated`). The domain is
 * `verified` once DKIM, return path and DMARC all match, `failed` when one is wrong or missing,
 * and otherwise (a lookup did not complete) `temporary_failure`, unless it was verified, which a
 * DNS outage alone does not undo.
 */
export function applyVerification(
  records: StoredDnsRecord[],
  outcomes: Map<StoredDnsRecord, RecordOutcome>,
  previous: EmailDomainStatus,
): VerificationResult {
  let updated = records.map((record) => withOutcome(record, outcomes.get(record)));
  let returnPathName: string | undefined;
  const staged = updated.find(
    (record) => record.purpose === 'return_path' && record.state === 'pending',
  );
  if (staged?.check === 'match') {
    // Only the return path just replaced is kept as deprecated; older ones are forgotten.
    updated = updated
      .filter((record) => !(record.purpose === 'return_path' && record.state === 'deprecated'))
      .map((record) => {
        if (record === staged) return { ...record, state: 'active' };
        if (record.purpose === 'return_path' && record.state === 'active')
          return { ...record, state: 'deprecated', safe_to_remove: true };
        return record;
      });
    returnPathName = staged.host.split('.')[0];
  }
  const required = updated.filter(
    (record) =>
      record.state === 'active' &&
      (REQUIRED_PURPOSES as readonly string[]).includes(record.purpose),
  );
  const failing = required.filter(
    (record) => record.check === 'mismatch' || record.check === 'missing',
  );
  let status: EmailDomainStatus;
  if (required.length === REQUIRED_PURPOSES.length && required.every((r) => r.check === 'match'))
    status = 'verified';
  else if (failing.length) status = 'failed';
  else if (required.some((r) => r.check === 'temporary'))
    status = previous === 'verified' ? 'verified' : 'temporary_failure';
  else status = previous === 'verified' ? 'verified' : 'pending';
  const failureReason = failing.length
    ? failing.map((r) => `${r.purpose}: ${r.error ?? 'does not match'}`).join('; ')
    : null;
  return { records: updated, status, returnPathName, failureReason };
}
