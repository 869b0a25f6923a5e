import type {
  EmailDnsRecord,
  EmailDomain,
  EmailDomainCapability,
  EmailDomainCapabilityStatus,
} from '@switchboard/contracts';
import type { RecordCheck, StoredDnsRecord } from './domain-records';
import type { DomainRow } from './domains.repository';

const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();

function capabilityStatus(check: RecordCheck | null | undefined): EmailDomainCapabilityStatus {
  switch (check) {
    case 'match':
      return 'verified';
    case 'mismatch':
    case 'missing':
      return 'failed';
    case 'temporary':
      return 'temporary_failure';
    case null:
    case undefined:
      return 'pending';
  }
}

function toRecordDto(record: StoredDnsRecord): EmailDnsRecord {
  return {
    type: record.type,
    name: record.name,
    host: record.host,
    value: record.value,
    purpose: record.purpose,
    state: record.state,
    optional: record.optional,
    status: record.status,
    error: record.error,
    safe_to_remove: record.safe_to_remove,
  };
}

const NOT_CONFIGURED: EmailDomainCapability = { status: 'not_configured', domain: null };

/** The SDK's `Domain`; the capabilities are read off the records' last checks. */
export function toDomainDto(row: DomainRow): EmailDomain {
  const active = (purpose: string) =>
    row.records.find((r) => r.purpose === purpose && r.state === 'active');
  const returnPath = active('return_path');
  const dmarc = active('dmarc');
  const staged = row.records.find((r) => r.purpose === 'return_path' && r.state === 'pending');
  const returnPathCapability: EmailDomainCapability = {
    status: capabilityStatus(returnPath?.check),
    domain: returnPath?.host ?? null,
  };
  if (staged) {
    const status = capabilityStatus(staged.check);
    returnPathCapability.pending = {
      domain: staged.host,
      status: status === 'failed' || status === 'temporary_failure' ? status : 'pending',
    };
  }
  // Sending needs all three records, which is exactly what `status` reports. The SDK gives a
  // capability a `domain` only for the return path, tracking and DMARC: none for sending.
  const sending: EmailDomainCapability = {
    status: row.status === 'rejected' ? 'failed' : row.status,
    domain: null,
  };
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    domain: row.domain,
    vendor: row.vendor,
    status: row.status,
    settings: { click_tracking: row.click_tracking, open_tracking: row.open_tracking },
    dkim: { mode: 'txt', selector: row.dkim_selector, key_size: row.dkim_key_size },
    capabilities: {
      sending,
      return_path: returnPathCapability,
      dmarc: {
        status: capabilityStatus(dmarc?.check),
        domain: dmarc?.check === 'match' ? (dmarc.found_at ?? row.domain) : null,
      },
      tracking: NOT_CONFIGURED,
      inbound: NOT_CONFIGURED,
    },
    dns_records: row.records.map(toRecordDto),
    last_checked_at: row.last_checked_at ? iso(row.last_checked_at) : null,
    verified_at: row.verified_at ? iso(row.verified_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}
