import type { Preference } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { PreferenceRow } from './preferences.repository';

export function toPreferenceDto(row: PreferenceRow): Preference {
  return {
    id: row.id,
    channel: row.channel,
    handle: row.handle,
    sender_scope: row.sender_scope,
    topic_id: row.topic_id,
    status: row.status,
    coverage: row.coverage,
    effective_at: new Date(row.effective_at).toISOString(),
    origin: row.origin,
    source: row.source,
    consented_at: row.consented_at ? new Date(row.consented_at).toISOString() : null,
    contact_id: row.contact_id,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** `preference.granted|revoked|deleted`: the envelope timestamp is the write's `effective_at`. */
export function preferenceEvent(
  type: 'preference.granted' | 'preference.revoked' | 'preference.deleted',
  row: PreferenceRow,
  transitionId: string,
  effectiveAt: Date,
): OutboxEvent {
  return {
    id: newId('ev'),
    type,
    workspaceId: row.workspace_id,
    timestamp: effectiveAt.toISOString(),
    data: {
      preference_id: row.id,
      transition_id: transitionId,
      channel: row.channel,
      handle: row.handle,
      sender_scope: row.sender_scope,
      topic_id: row.topic_id,
      coverage: row.coverage,
      contact_id: row.contact_id,
    },
  };
}
