import type { PreferenceCoverage } from '@messagebird/sdk';

/** The `preference.*` events the ledger publishes, which the channels' projections follow. */
export const PREFERENCE_EVENT_TYPES = [
  'preference.granted',
  'preference.revoked',
  'preference.deleted',
] as const;
export type PreferenceEventType = (typeof PREFERENCE_EVENT_TYPES)[number];

/**
 * A key's current statement, republished for the channels' projections (never a webhook): the
 * ledger's migration writes one per key it already held when enforcement arrived, so a
 * projection starts from the whole ledger, not only from the statements made after it. Its
 * `data` is a `preference.*` event's with `status`.
 */
export const PREFERENCE_SNAPSHOT_EVENT = 'internal.preference.snapshot';

/** The `data` of a `preference.*` event; its envelope `timestamp` is the write's `effective_at`. */
export interface PreferenceEventData {
  preference_id: string;
  transition_id: string;
  channel: string;
  handle: string;
  sender_scope: string | null;
  topic_id: string | null;
  coverage: PreferenceCoverage;
  contact_id: string | null;
}

/** A key's current statement as a channel's projection holds it ('' = channel-wide). */
export interface ProjectedPreference {
  sender_scope: string;
  status: 'granted' | 'revoked' | 'deleted';
  coverage: string;
}

/**
 * Whether the recipient's statements stop a send: any revocation that applies to it does, the
 * channel-wide one (`sender_scope` '') or the one for the send's own sender (`senderScope`: the
 * SMS originator, the WhatsApp business account). A grant never lifts a revocation of another
 * scope: a grant scoped to one sender does not undo the person's channel-wide opt-out (which
 * only a later channel-wide statement replaces, by the ledger's rules). A deleted statement is
 * no statement. Coverage `all` stops every send, `non_transactional` only sends that are not
 * transactional; a coverage this version does not know is read as `all` (an opt-out is never
 * weakened by a newer word).
 */
export function preferenceStops(
  statements: readonly ProjectedPreference[],
  send: { senderScope: string; transactional: boolean },
): boolean {
  return statements.some(
    (statement) =>
      statement.status === 'revoked' &&
      (statement.sender_scope === '' ||
        (send.senderScope !== '' && statement.sender_scope === send.senderScope)) &&
      (statement.coverage !== 'non_transactional' || !send.transactional),
  );
}
