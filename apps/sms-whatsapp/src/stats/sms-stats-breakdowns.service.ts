import { Injectable } from '@nestjs/common';
import {
  BREAKDOWN_LIMIT,
  rankRows,
  resolveStatsWindow,
  SMS_STATS_LIFECYCLE_SORT_METRICS,
  SMS_STATS_SORT_METRICS,
  StatsQueryProblem,
  TREND_MAX,
} from '@switchboard/contracts';
import type {
  RequestContext,
  SmsDeliveryStats,
  SmsStatsBreakdown,
  SmsStatsBreakdownRequest,
  SmsStatsPoint,
  SmsStatsSortMetric,
  StatsBreakdownReply,
  StatsWindow,
} from '@switchboard/contracts';
import { answeringProblems, VersionedAnswers } from '@switchboard/persistence';
import { workspaceOf } from '@switchboard/platform';
import { countsOf, deliveryOf, latencyOf, periodOf } from './sms-stats-figures';
import { SmsStatsRepository } from './sms-stats.repository';
import { limitOf } from './sms-stats.service';

/** Each breakdown's rollup dimension and the key its rows carry. */
const BREAKDOWNS: Record<SmsStatsBreakdown, { dimension: string; key: string }> = {
  originators: { dimension: 'originator', key: 'originator' },
  countries: { dimension: 'country', key: 'country' },
  categories: { dimension: 'category', key: 'category' },
  carriers: { dimension: 'carrier', key: 'carrier' },
  'error-codes': { dimension: 'error_code', key: 'error_code' },
  tags: { dimension: 'tag', key: 'tag' },
};

/** The sort a breakdown takes: error codes rank by lifecycle counts only (default `failed`). */
function sortOf(breakdown: SmsStatsBreakdown, sort: string | undefined): SmsStatsSortMetric {
  const allowed: readonly string[] =
    breakdown === 'error-codes' ? SMS_STATS_LIFECYCLE_SORT_METRICS : SMS_STATS_SORT_METRICS;
  const chosen = sort ?? (breakdown === 'error-codes' ? 'failed' : 'accepted');
  if (!allowed.includes(chosen))
    throw new StatsQueryProblem('E01001', [
      { param: 'sort', message: `sort must be one of ${allowed.join(', ')}` },
    ]);
  return chosen as SmsStatsSortMetric;
}

/**
 * The trend's window when `include_trend` is set: the breakdown's window at the trend grain,
 * refused with 422 beyond 50 rows, 90 days daily or 720 hours hourly.
 */
function trendWindow(request: SmsStatsBreakdownRequest, window: StatsWindow, limit: number) {
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
  return { ...window, grain: hourly ? ('hour' as const) : ('day' as const) };
}

type Breakdown = StatsBreakdownReply<Record<string, unknown>>;

/** SMS breakdowns by originator, country, category, carrier, error code and tag (ADR 18). */
@Injectable()
export class SmsStatsBreakdownsService {
  /** Answers per rollup version: dashboards asking the same breakdown share one computation. */
  private readonly answers = new VersionedAnswers<Breakdown>();

  constructor(private readonly rollups: SmsStatsRepository) {}

  breakdown(context: RequestContext, request: SmsStatsBreakdownRequest) {
    return answeringProblems(async (): Promise<Breakdown> => {
      const sort = sortOf(request.breakdown, request.sort);
      const limit = limitOf(request.limit);
      const hourlyTrend = request.include_trend && request.trend_grain === 'hourly';
      const window = resolveStatsWindow(request, {
        forms: 'day',
        defaultDays: hourlyTrend ? 29 : 30,
      });
      const trend = trendWindow(request, window, limit);
      const workspaceId = workspaceOf(context);
      const { dataAsOf, version } = await this.rollups.freshness();
      const asked = JSON.stringify([workspaceId, request, window.from, window.to]);
      return this.answers.answer(asked, version, async () => ({
        ...(await this.compute(workspaceId, request.breakdown, { window, trend, sort, limit })),
        period: periodOf(window, dataAsOf),
      }));
    });
  }

  private async compute(
    workspaceId: string,
    breakdown: SmsStatsBreakdown,
    asked: { window: StatsWindow; trend?: StatsWindow; sort: SmsStatsSortMetric; limit: number },
  ): Promise<Omit<Breakdown, 'period'>> {
    const { window, trend, sort, limit } = asked;
    const { dimension, key } = BREAKDOWNS[breakdown];
    const counted = await this.rollups.breakdownCounts(workspaceId, dimension, window);
    const rows = counted.map((row) => ({ value: row.value, delivery: deliveryOf(row) }));
    const ranked = rankRows(
      rows,
      (row) => metricOf(row.delivery, sort),
      (row) => row.value,
    ).slice(0, limit);
    const values = ranked.map((row) => row.value);
    const [sketches, trends] = await Promise.all([
      values.length ? this.rollups.breakdownSketches(workspaceId, dimension, values, window) : [],
      trend && values.length
        ? this.rollups.breakdownTrends(workspaceId, dimension, values, trend)
        : [],
    ]);
    const sketchOf = new Map(sketches.map((row) => [row.value, row]));
    const trendOf = new Map<string, SmsStatsPoint[]>();
    for (const point of trends)
      trendOf.set(point.value, [
        ...(trendOf.get(point.value) ?? []),
        { bucket: point.label, delivery: countsOf(point) },
      ]);
    return {
      data: ranked.map((row) => ({
        [key]: row.value,
        delivery: row.delivery,
        latency: latencyOf(sketchOf.get(row.value)),
        ...(trend ? { trend: trendOf.get(row.value) ?? [] } : {}),
      })),
      total: rows.length,
    };
  }
}

function metricOf(delivery: SmsDeliveryStats, sort: SmsStatsSortMetric): number | null {
  return delivery[sort];
}
