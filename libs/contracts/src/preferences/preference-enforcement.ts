import type { PreferenceCoverage } from '@messagebird/sdk';

/** The `preference.*` events the ledger publishes, which the channels' projections follow. */
export const PREFERENCE_EVENT_TYPES = [
  'preference.granted',
  'preference.revoked',
  'preference.deleted',
] as const;
export type PreferenceEventType = (typeof PREFERENCE_EVENT_TYPES)[number];

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
 * Whether the recipient's statements stop a send. The statement for the send's own sender
 * (`senderScope`: the SMS originator, the WhatsApp business account) wins over the channel-wide
 * one; a deleted statement is no statement. Only a revocation stops anything: one with coverage
 * `all` stops every send, `non_transactional` only sends that are not transactional. A coverage
 * this version does not know is read as `all` (an opt-out is never weakened by a newer word).
 */
export function preferenceStops(
  statements: readonly ProjectedPreference[],
  send: { senderScope: string; transactional: boolean },
): boolean {
  const live = statements.filter((statement) => statement.status !== 'deleted');
  const deciding =
    (send.senderScope !== '' &&
      live.find((statement) => statement.sender_scope === send.senderScope)) ||
    live.find((statement) => statement.sender_scope === '');
  if (!deciding || deciding.status !== 'revoked') return false;
  return deciding.coverage !== 'non_transactional' || !send.transactional;
}
