import { preferenceStops } from '@switchboard/contracts';
import type { ProjectedPreference } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

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

/**
 * Which of `checks` the recipient's preferences stop (ADR 14), by index: ONE read of the
 * projection for the whole batch (each recipient's channel-wide and sender statements).
 */
export async function stoppedByPreferences(
  runner: SqlRunner,
  checks: readonly PreferenceCheck[],
): Promise<Set<number>> {
  if (checks.length === 0) return new Set();
  const rows = rowsOf<ProjectedStatement>(
    await runner.query(
      `SELECT p.workspace_id, p.channel, p.handle, p.sender_scope, p.status, p.coverage
       FROM sms_whatsapp.preference_states p
       JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]))
         AS s (workspace_id, channel, handle, sender_scope)
         ON p.workspace_id = s.workspace_id AND p.channel = s.channel AND p.handle = s.handle
           AND p.sender_scope IN ('', s.sender_scope)
       WHERE p.status <> 'deleted'`,
      [
        checks.map((check) => check.workspaceId),
        checks.map((check) => check.channel),
        checks.map((check) => check.handle),
        checks.map((check) => check.senderScope),
      ],
    ),
  );
  return stoppedAmong(rows, checks);
}
