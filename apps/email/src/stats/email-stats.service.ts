import { Injectable } from '@nestjs/common';
import {
  EMAIL_STATS_FILTERS,
  previousWindow,
  resolveStatsWindow,
  singleDimensionFilter,
} from '@switchboard/contracts';
import type {
  EmailStatsSeriesRequest,
  EmailStatsSummaryRequest,
  RequestContext,
  StatsWindow,
} from '@switchboard/contracts';
import type { EmailStatsResponse, EmailStatsSummary } from '@messagebird/sdk';
import { answeringProblems, WHOLE_WORKSPACE } from '@switchboard/persistence';
import type { StatsScope } from '@switchboard/persistence';
import { workspaceOf } from '@switchboard/platform';
import { deltaOf, figuresOf, periodOf, zeroFilled } from './email-stats-figures';
import { EmailStatsRepository } from './email-stats.repository';

/** The scope a request's one dimension filter names, or the whole workspace. */
function scopeOf(request: EmailStatsSummaryRequest): StatsScope {
  const filter = singleDimensionFilter(request, EMAIL_STATS_FILTERS);
  if (!filter) return WHOLE_WORKSPACE;
  if (filter.dimension === 'tag' && !filter.value.includes(':'))
    return { dimension: 'tag_name', values: [filter.value] };
  const value = filter.dimension === 'recipient_domain' ? filter.value.toLowerCase() : filter.value;
  return { dimension: filter.dimension, values: [value] };
}

/** Email summary, daily and hourly, answered from the rollups (ADR 18). */
@Injectable()
export class EmailStatsService {
  constructor(private readonly rollups: EmailStatsRepository) {}

  summary(context: RequestContext, request: EmailStatsSummaryRequest): Promise<EmailStatsSummary> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: 'either' });
      const scope = scopeOf(request);
      const workspaceId = workspaceOf(context);
      const [row, dataAsOf] = await Promise.all([
        this.rollups.totals(workspaceId, scope, window),
        this.rollups.dataAsOf(),
      ]);
      const current = { sends_accepted: Number(row?.sends_accepted ?? 0), ...figuresOf(row, true) };
      const summary: EmailStatsSummary = { period: periodOf(window, dataAsOf), ...current };
      if (request.compare !== 'previous_period') return summary;
      const previous = previousWindow(window);
      const before = await this.rollups.totals(workspaceId, scope, previous);
      const earlier = {
        sends_accepted: Number(before?.sends_accepted ?? 0),
        ...figuresOf(before, true),
      };
      return {
        ...summary,
        comparison: {
          period: periodOf(previous, dataAsOf),
          ...earlier,
          delta: deltaOf(current, earlier),
        },
      };
    });
  }

  series(context: RequestContext, request: EmailStatsSeriesRequest): Promise<EmailStatsResponse> {
    return answeringProblems(async () => {
      const window: StatsWindow = resolveStatsWindow(request, { forms: request.grain });
      const scope = scopeOf(request);
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.series(workspaceOf(context), scope, window, true),
        this.rollups.dataAsOf(),
      ]);
      return {
        period: { ...periodOf(window, dataAsOf), grain: window.grain },
        data: zeroFilled(window, rows),
      };
    });
  }
}
