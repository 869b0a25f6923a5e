import type { OWN_PREFERENCE_ORIGINS, PreferenceCoverage, PreferenceStatus } from './preferences';

/**
 * A statement a person made themselves through a channel (an SMS STOP or START, later an email
 * unsubscribe link), written by the channel's service to its outbox in the transaction that acts
 * on it, and recorded by the preference ledger under the ledger's own rules. Internal: never a
 * webhook.
 */
export const PREFERENCE_STATEMENT_EVENT = 'internal.preference.statement';

/** How the person made it: the origins of `OWN_PREFERENCE_ORIGINS`. */
export type OwnPreferenceOrigin = (typeof OWN_PREFERENCE_ORIGINS)[number];

/** The `data` of an `internal.preference.statement` event (its workspace is the envelope's). */
export interface PreferenceStatementEvent {
  channel: 'email' | 'sms' | 'whatsapp';
  /** The person: E.164 on SMS and WhatsApp, the address on email. */
  handle: string;
  /** On SMS the originator the person texted; null for a channel-wide statement. */
  sender_scope: string | null;
  status: PreferenceStatus;
  coverage: PreferenceCoverage;
  origin: OwnPreferenceOrigin;
  /** When the person said it (the inbound message's time), ISO 8601. */
  effective_at: string;
  /** On a grant: when the person consented (the same moment for a START); null on a revoke. */
  consented_at: string | null;
  /** Where it was said, e.g. `sms:<inbound sms id>`. */
  source: string;
}
