import {
  OWN_PREFERENCE_ORIGINS,
  PREFERENCE_COVERAGES,
  PREFERENCE_STATUSES,
} from '@switchboard/contracts';
import type { OutboxEvent } from '@switchboard/platform';
import { normalizeHandle, normalizeSenderScope } from './preference-statement';
import type { PreferenceKey, PreferenceState } from './preferences.repository';

const CHANNELS = ['email', 'sms', 'whatsapp'];

const oneOf = (values: readonly string[], value: unknown): value is string =>
  typeof value === 'string' && values.includes(value);

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The key and statement an `internal.preference.statement` event carries (the channel's own
 * words, `PreferenceStatementEvent`), or why the ledger cannot record it. The contact is left
 * null: the ledger keeps the one the key last matched.
 */
export function channelStatementOf(
  event: OutboxEvent,
): { key: PreferenceKey; state: PreferenceState } | { problem: string } {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const channel = data.channel;
  if (!oneOf(CHANNELS, channel)) return { problem: 'channel is not email, sms or whatsapp' };
  const handle =
    typeof data.handle === 'string' ? normalizeHandle(channel, data.handle) : undefined;
  if (!handle) return { problem: `handle is not a ${channel} handle` };
  const scope = data.sender_scope;
  if (scope !== null && (typeof scope !== 'string' || scope === '' || channel === 'email'))
    return { problem: 'sender_scope must be null or, outside email, a sender' };
  if (!oneOf(PREFERENCE_STATUSES, data.status)) return { problem: 'status is not one' };
  if (!oneOf(PREFERENCE_COVERAGES, data.coverage)) return { problem: 'coverage is not one' };
  if (!oneOf(OWN_PREFERENCE_ORIGINS, data.origin))
    return { problem: "origin is not one of a person's own" };
  const effectiveAt = dateOf(data.effective_at);
  if (!effectiveAt) return { problem: 'effective_at is not a date-time' };
  const consentedAt = data.consented_at === null ? null : dateOf(data.consented_at);
  if (consentedAt === undefined) return { problem: 'consented_at is not a date-time' };
  if (consentedAt && data.status !== 'granted')
    return { problem: 'consented_at is only carried by a grant' };
  if (typeof data.source !== 'string') return { problem: 'source is missing' };
  return {
    key: {
      workspaceId: event.workspaceId,
      channel,
      handle,
      senderScope: normalizeSenderScope(channel, scope),
    },
    state: {
      status: data.status as PreferenceState['status'],
      coverage: data.coverage as PreferenceState['coverage'],
      origin: data.origin,
      source: data.source,
      consentedAt,
      effectiveAt,
      contactId: null,
    },
  };
}
