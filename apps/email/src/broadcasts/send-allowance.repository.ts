import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

/**
 * Takes the workspace's allowance for the rest of the transaction: pages of two broadcasts
 * checked at once would each see the other's messages missing and together pass the allowance.
 */
export async function lockAllowance(runner: SqlRunner, workspaceId: string): Promise<void> {
  await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 23))`, [
    `email.allowance ${workspaceId}`,
  ]);
}

/**
 * Emails the workspace sent (accepted) in the current UTC day and calendar month: one per
 * recipient of each message not canceled. Counted from the addresses, since `accepted_count` is
 * the recipients still waiting (the SDK's), which falls to 0 as they are processed.
 */
export async function sentInWindows(
  runner: SqlRunner,
  workspaceId: string,
): Promise<{ daily: number; monthly: number }> {
  const recipients = `jsonb_array_length(to_addresses) + jsonb_array_length(cc_addresses)
         + jsonb_array_length(bcc_addresses)`;
  const rows = rowsOf<{ daily: number; monthly: number }>(
    await runner.query(
      `SELECT
         coalesce(sum(${recipients}) FILTER (
           WHERE created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0)::int AS daily,
         coalesce(sum(${recipients}), 0)::int AS monthly
       FROM email.messages
       WHERE workspace_id = $1
         AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
         AND status <> 'canceled'`,
      [workspaceId],
    ),
  );
  return rows[0] ?? { daily: 0, monthly: 0 };
}
