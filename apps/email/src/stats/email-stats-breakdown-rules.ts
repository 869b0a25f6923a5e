import {
  BREAKDOWN_LIMIT,
  EMAIL_BOUNCE_CODE_SORT_METRICS,
  EMAIL_DELIVERY_SORT_METRICS,
  EMAIL_ENGAGEMENT_SORT_METRICS,
  EMAIL_SENDING_IP_SORT_METRICS,
  EMAIL_STATS_SORT_METRICS,
  StatsQueryProblem,
  TREND_MAX,
} from '@switchboard/contracts';
import type {
  EmailStatsBreakdown,
  EmailStatsBreakdownRequest,
  StatsWindow,
} from '@switchboard/contracts';

/** Each breakdown's sorts and default sort (the SDK's per-operation `sort` enums). */
const SORTS: Record<EmailStatsBreakdown, { allowed: readonly string[]; default: string }> = {
  tags: { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  categories: { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  'sending-domains': { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  'recipient-domains': { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  templates: { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  broadcasts: { allowed: EMAIL_STATS_SORT_METRICS, default: 'processed' },
  'sending-ips': { allowed: EMAIL_SENDING_IP_SORT_METRICS, default: 'delivered' },
  'mailbox-providers': { allowed: EMAIL_DELIVERY_SORT_METRICS, default: 'delivered' },
  'mailbox-provider-regions': { allowed: EMAIL_DELIVERY_SORT_METRICS, default: 'delivered' },
  locations: { allowed: EMAIL_ENGAGEMENT_SORT_METRICS, default: 'unique_opens' },
  clients: { allowed: EMAIL_ENGAGEMENT_SORT_METRICS, default: 'unique_opens' },
  'bounce-codes': { allowed: EMAIL_BOUNCE_CODE_SORT_METRICS, default: 'bounced' },
  'complaint-types': { allowed: ['complained'], default: 'complained' },
};

const GROUP_BY: Partial<Record<EmailStatsBreakdown, readonly string[]>> = {
  locations: ['country', 'region', 'city'],
  clients: ['email_client', 'os', 'device_type'],
};

/** The sort a breakdown takes; 422 naming the allowed ones otherwise. */
export function sortOf(request: EmailStatsBreakdownRequest): string {
  const { allowed, default: chosen } = SORTS[request.breakdown];
  const sort = request.sort ?? chosen;
  if (!allowed.includes(sort))
    throw new StatsQueryProblem('E01001', [
      { param: 'sort', message: `sort must be one of ${allowed.join(', ')}` },
    ]);
  return sort;
}

/** `group_by` of locations and clients; 422 when not one of theirs. */
export function groupByOf(request: EmailStatsBreakdownRequest): string | undefined {
  const allowed = GROUP_BY[request.breakdown];
  if (!allowed) return undefined;
  const groupBy = request.group_by ?? allowed[0];
  if (!allowed.includes(groupBy))
    throw new StatsQueryProblem('E01001', [
      { param: 'group_by', message: `group_by must be one of ${allowed.join(', ')}` },
    ]);
  return groupBy;
}

/** The limit a breakdown asked for: 1 to 200 (default 50). */
export function limitOf(limit: number | undefined): number {
  if (limit === undefined) return BREAKDOWN_LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > BREAKDOWN_LIMIT.max)
    throw new StatsQueryProblem('E01001', [
      { param: 'limit', message: `limit must be an integer from 1 to ${BREAKDOWN_LIMIT.max}` },
    ]);
  return limit;
}

/**
 * The trend's window when `include_trend` is set: the breakdown's window at the trend grain,
 * refused with 422 beyond 50 rows, 90 days daily or 720 hours hourly.
 */
export function trendWindow(
  request: EmailStatsBreakdownRequest,
  window: StatsWindow,
  limit: number,
): StatsWindow | undefined {
  if (!request.include_trend) return undefined;
  if (limit > BREAKDOWN_LIMIT.withTrend)
    throw new StatsQueryProblem('E01154', [
      { param: 'limit', message: `include_trend allows limit up to ${BREAKDOWN_LIMIT.withTrend}` },
    ]);
  const hourly = request.trend_grain === 'hourly';
  const hours = Math.round((window.end.getTime() - window.start.getTime()) / 3_600_000);
  if (hourly ? hours > TREND_MAX.hourlyHours : window.length > TREND_MAX.daily)
    throw new StatsQueryProblem('E01154', [
      {
        param: 'from',
        message: hourly
          ? `an hourly trend covers at most ${TREND_MAX.hourlyHours} hours`
          : `a daily trend covers at most ${TREND_MAX.daily} days`,
      },
    ]);
  return { ...window, grain: hourly ? 'hour' : 'day' };
}
