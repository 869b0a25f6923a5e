import type { SortedPageRequest } from '../pagination';

/**
 * Sending domains (reference section 5, contract section 6): the records a workspace publishes
 * (a DKIM TXT, the return-path CNAME, a DMARC TXT) and their verification by DNS. Shapes follow the SDK's `Domain`,
 * `DnsRecord`, `DomainCapabilities`, `DomainCreate` and `DomainUpdate`. Subjects are in
 * `EmailSubjects` (email.ts).
 */

/** Ownership and readiness of the domain as a whole (SDK `Domain.status`). */
export type EmailDomainStatus =
  'pending' | 'verified' | 'failed' | 'temporary_failure' | 'rejected';

export type EmailDomainCapabilityStatus =
  'pending' | 'verified' | 'warning' | 'failed' | 'temporary_failure' | 'not_configured';

export interface EmailDomainCapability {
  status: EmailDomainCapabilityStatus;
  /**
   * The return-path host, or where the DMARC policy was found; null when not applicable (sending)
   * or not configured.
   */
  domain: string | null;
  /** A staged change (a new return path) waiting for its record to verify. */
  pending?: { domain: string; status: 'pending' | 'failed' | 'temporary_failure' };
  reason?: string | null;
}

export interface EmailDomainCapabilities {
  sending: EmailDomainCapability;
  return_path: EmailDomainCapability;
  dmarc: EmailDomainCapability;
  tracking: EmailDomainCapability;
  inbound?: EmailDomainCapability;
}

export type EmailDnsRecordPurpose = 'dkim' | 'return_path' | 'tracking' | 'inbound_mx' | 'dmarc';

export interface EmailDnsRecord {
  /** Set by `purpose`: TXT for `dkim` and `dmarc`, CNAME for `return_path` and `tracking`, MX for `inbound_mx`. */
  type: 'TXT' | 'CNAME' | 'MX';
  /** Relative to the zone the record belongs in (`sb1._domainkey.mail` for `mail.acme.com`). */
  name: string;
  /** Fully qualified. */
  host: string;
  /** As entered in a DNS provider: the full TXT content, a CNAME's target host name. */
  value: string;
  purpose: EmailDnsRecordPurpose;
  state: 'active' | 'pending' | 'deprecated';
  optional: boolean;
  status: 'pending' | 'verified' | 'warning' | 'failed';
  /** What the last check found and why it did not match; null when verified or never checked. */
  error: string | null;
  safe_to_remove: boolean | null;
}

export interface EmailDomainSettings {
  click_tracking: boolean;
  open_tracking: boolean;
}

export type EmailDomainVendor =
  | 'other'
  | 'cloudflare'
  | 'route53'
  | 'godaddy'
  | 'namecheap'
  | 'google'
  | 'azure'
  | 'digitalocean'
  | 'squarespace';

export interface EmailDomain {
  id: string;
  workspace_id: string;
  domain: string;
  vendor: EmailDomainVendor;
  status: EmailDomainStatus;
  settings: EmailDomainSettings;
  dkim: { mode: 'txt' | 'delegated'; selector: string; key_size: number };
  capabilities: EmailDomainCapabilities;
  dns_records: EmailDnsRecord[];
  last_checked_at: string | null;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `POST /v1/email/domains`, as the gateway forwards it (the service normalises `domain`). */
export interface CreateEmailDomainRequest {
  domain: string;
  return_path?: { name: string };
  tracking?: { name: string };
  dkim?: { mode?: 'txt' | 'delegated' };
  settings?: { click_tracking?: boolean; open_tracking?: boolean };
}

/** `PATCH /v1/email/domains/{domain_id}`: only the fields sent change. */
export interface UpdateEmailDomainRequest {
  domain_id: string;
  settings?: { click_tracking?: boolean; open_tracking?: boolean };
  return_path?: { name: string };
  /** `null` removes tracking. */
  tracking?: { name: string } | null;
  dkim?: { mode?: 'txt' | 'delegated' };
  inbound?: { enabled: boolean };
}

export type ListEmailDomainsRequest = SortedPageRequest<'created_at' | 'name'>;

/** `domain.verified` (SDK `EventDomainVerified`). */
export interface EmailDomainVerifiedEvent {
  type: 'domain.verified';
  timestamp: string;
  data: { domain_id: string; domain: string; workspace_id: string };
}

/** `domain.failed` (SDK `EventDomainFailed`). */
export interface EmailDomainFailedEvent {
  type: 'domain.failed';
  timestamp: string;
  data: { domain_id: string; domain: string; workspace_id: string; failure_reason: string | null };
}
