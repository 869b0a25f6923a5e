import type { EmailBroadcastSendQuota } from '@switchboard/contracts';
import { SNAPSHOT_PAGE_ROWS } from './audience-snapshots';

/** The allowances of the deployment's settings; 0 is unlimited. */
export interface SendAllowanceLimits {
  daily: number;
  monthly: number;
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
