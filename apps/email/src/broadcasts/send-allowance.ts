import type { EmailBroadcastSendQuota } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SNAPSHOT_PAGE_ROWS } from './audience-snapshots';

/** The allowances of the deployment's settings; 0 is unlimited. */
export interface SendAllowanceLimits {
  daily: number;
  monthly: number;
}

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

/**
 * How much of `recipients` the allowances cover. An audience larger than a whole allowance (of
 * either window) is refused (0), never sent in part; otherwise what is left covers whole batches
 * (pages of the preparation), and the tighter window is the one reported. A part-covered send
 * goes out batch by batch until the allowance runs out (`failure_reason` `quota_exceeded`).
 */
export function sendQuotaOf(
  recipients: number,
  limits: SendAllowanceLimits,
  used: { daily: number; monthly: number },
): EmailBroadcastSendQuota {
  const windows = (['daily', 'monthly'] as const)
    .filter((window) => limits[window] > 0)
    .map((window) => ({
      window,
      limit: limits[window],
      remaining: Math.max(0, limits[window] - used[window]),
    }))
    .sort((a, b) => a.remaining - b.remaining);
  const tightest = windows[0];
  if (!tightest || recipients <= tightest.remaining)
    return { recipients, allowed: recipients, limited_by: 'none' };
  // A daily allowance smaller than the audience refuses it, however much the month has left.
  const outgrown = windows.filter((w) => recipients > w.limit).sort((a, b) => a.limit - b.limit);
  const limiting = outgrown[0] ?? tightest;
  const allowed = outgrown[0]
    ? 0
    : Math.floor(tightest.remaining / SNAPSHOT_PAGE_ROWS) * SNAPSHOT_PAGE_ROWS;
  return {
    recipients,
    allowed,
    limited_by: limiting.window,
    limit: limiting.limit,
    remaining: limiting.remaining,
  };
}

/** Why a send allowance does not cover `recipients`, for a 422's detail or a failure's. */
export function quotaDetail(recipients: number, quota: EmailBroadcastSendQuota): string {
  return `${recipients} recipients; the ${quota.limited_by} allowance of ${quota.limit} has ${quota.remaining} left`;
}
