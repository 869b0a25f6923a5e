import type { EmailBroadcastSendQuota } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SNAPSHOT_PAGE_ROWS } from './audience-snapshots';

/** The allowances of the deployment's settings; 0 is unlimited. */
export interface SendAllowanceLimits {
  daily: number;
  monthly: number;
}

/** Emails the workspace sent (accepted) in the current UTC day and calendar month. */
export async function sentInWindows(
  runner: SqlRunner,
  workspaceId: string,
): Promise<{ daily: number; monthly: number }> {
  const rows = rowsOf<{ daily: number; monthly: number }>(
    await runner.query(
      `SELECT
         coalesce(sum(accepted_count) FILTER (
           WHERE created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0)::int AS daily,
         coalesce(sum(accepted_count), 0)::int AS monthly
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
 * How much of `recipients` the allowances cover. An audience larger than a whole allowance is
 * refused (0), never sent in part; otherwise what is left covers whole batches (pages of the
 * preparation), and the tighter window is the one reported.
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
  const allowed =
    recipients > tightest.limit
      ? 0
      : Math.floor(tightest.remaining / SNAPSHOT_PAGE_ROWS) * SNAPSHOT_PAGE_ROWS;
  return {
    recipients,
    allowed,
    limited_by: tightest.window,
    limit: tightest.limit,
    remaining: tightest.remaining,
  };
}
