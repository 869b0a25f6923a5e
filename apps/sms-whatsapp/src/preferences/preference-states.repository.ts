import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { stoppedAmong } from './preference-checks';
import type { PreferenceCheck, ProjectedStatement } from './preference-checks';

/**
 * The statements the preference projection holds for the recipients of `checks` (each one's
 * channel-wide statement and its sender's), in ONE read for the whole batch.
 */
export async function statementsAmong(
  runner: SqlRunner,
  checks: readonly PreferenceCheck[],
): Promise<ProjectedStatement[]> {
  if (checks.length === 0) return [];
  return rowsOf<ProjectedStatement>(
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
}

/** Which of `checks` the recipient's preferences stop (ADR 14), by index. */
export async function stoppedByPreferences(
  runner: SqlRunner,
  checks: readonly PreferenceCheck[],
): Promise<Set<number>> {
  return stoppedAmong(await statementsAmong(runner, checks), checks);
}
