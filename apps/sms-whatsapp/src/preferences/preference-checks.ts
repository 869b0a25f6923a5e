import { preferenceStops } from '@switchboard/contracts';
import type { ProjectedPreference } from '@switchboard/contracts';

/** A send as the preference check reads it: its recipient's handle on `channel` and its sender. */
export interface PreferenceCheck {
  workspaceId: string;
  channel: 'sms' | 'whatsapp';
  handle: string;
  /** The SMS originator, the WhatsApp business account (its WABA id). */
  senderScope: string;
  transactional: boolean;
}

const keyOf = (workspaceId: string, channel: string, handle: string) =>
  `${workspaceId} ${channel} ${handle}`;

/** A statement the projection holds for a handle (any of the senders of a batch). */
export type ProjectedStatement = ProjectedPreference & {
  workspace_id: string;
  channel: string;
  handle: string;
};

/**
 * Which of `checks` their recipient's statements stop, by index: the precedence and coverage
 * rule of `preferenceStops` applied to the statements one read found for the batch.
 */
export function stoppedAmong(
  statements: readonly ProjectedStatement[],
  checks: readonly PreferenceCheck[],
): Set<number> {
  const byHandle = new Map<string, ProjectedStatement[]>();
  for (const row of statements) {
    const key = keyOf(row.workspace_id, row.channel, row.handle);
    byHandle.set(key, [...(byHandle.get(key) ?? []), row]);
  }
  const stopped = new Set<number>();
  checks.forEach((check, index) => {
    const found = byHandle.get(keyOf(check.workspaceId, check.channel, check.handle)) ?? [];
    if (preferenceStops(found, check)) stopped.add(index);
  });
  return stopped;
}
