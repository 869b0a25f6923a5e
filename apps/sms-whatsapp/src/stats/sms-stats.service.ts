import { Injectable } from '@nestjs/common';
import {
  BREAKDOWN_LIMIT,
  previousWindow,
  rankRows,
  resolveStatsWindow,
  singleDimensionFilter,
  SMS_STATS_FILTERS,
  StatsQueryProblem,
} from '@switchboard/contracts';
import type {
  RequestContext,
  SmsStatsSeriesRequest,
  SmsStatsSummaryRequest,
  StatsWindow,
  StatsWindowRequest,
} from '@switchboard/contracts';
import type { SmsStatsByStatusResponse, SmsStatsResponse, SmsStatsSummary } from '@messagebird/sdk';
import { workspaceOf } from '@switchboard/platform';
import { deliveryOf, deltaOf, latencyOf, periodOf, zeroFilled } from './sms-stats-figures';
import { SMS_COUNTS, SmsStatsRepository } from './sms-stats.repository';
import { answeringProblems, WHOLE_WORKSPACE } from '@switchboard/persistence';
import type { StatsScope } from '@switchboard/persistence';

/** The scope a request's one dimension filter names, or the whole workspace. */
function scopeOf(request: SmsStatsSummaryRequest): StatsScope {
  const filter = singleDimensionFilter(request, SMS_STATS_FILTERS);
  return filter ? { dimension: filter.dimension, values: [filter.value] } : WHOLE_WORKSPACE;
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

/** SMS outbound summary, series and statuses, answered from the rollups (ADR 18). */
@Injectable()
export class SmsStatsService {
  constructor(private readonly rollups: SmsStatsRepository) {}

  summary(context: RequestContext, request: SmsStatsSummaryRequest): Promise<SmsStatsSummary> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: 'either' });
      const scope = scopeOf(request);
      const workspaceId = workspaceOf(context);
      const [row, dataAsOf] = await Promise.all([
        this.rollups.totals(workspaceId, scope, window),
        this.rollups.dataAsOf(),
      ]);
      const delivery = deliveryOf(row);
      const summary: SmsStatsSummary = {
        period: periodOf(window, dataAsOf),
        delivery,
        latency: latencyOf(row),
      };
      if (request.compare !== 'previous_period') return summary;
      const previous = previousWindow(window);
      const before = await this.rollups.totals(workspaceId, scope, previous);
      const previousDelivery = deliveryOf(before);
      return {
        ...summary,
        comparison: {
          period: periodOf(previous, dataAsOf),
          delivery: previousDelivery,
          latency: latencyOf(before),
          delta: deltaOf(delivery, previousDelivery),
        },
      };
    });
  }

  series(context: RequestContext, request: SmsStatsSeriesRequest): Promise<SmsStatsResponse> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: request.grain });
      const scope = scopeOf(request);
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.series(workspaceOf(context), scope, window),
        this.rollups.dataAsOf(),
      ]);
      return {
        period: { ...periodOf(window, dataAsOf), grain: window.grain },
        data: zeroFilled(window, rows),
      };
    });
  }

  /** The lifecycle counts transposed: one row per status with activity, most first. */
  statuses(
    context: RequestContext,
    request: StatsWindowRequest,
  ): Promise<SmsStatsByStatusResponse> {
    return answeringProblems(async () => {
      const window: StatsWindow = resolveStatsWindow(request, { forms: 'day' });
      const [row, dataAsOf] = await Promise.all([
        this.rollups.totals(workspaceOf(context), WHOLE_WORKSPACE, window),
        this.rollups.dataAsOf(),
      ]);
      const delivery = deliveryOf(row);
      const data = rankRows(
        SMS_COUNTS.map((status) => ({ status, count: delivery[status] })).filter(
          (r) => r.count > 0,
        ),
        (r) => r.count,
        (r) => String(SMS_COUNTS.indexOf(r.status)),
      );
      return { period: periodOf(window, dataAsOf), data, total: data.length };
    });
  }
}
