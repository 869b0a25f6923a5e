import { Injectable } from '@nestjs/common';
import {
  bucketsOf,
  previousWindow,
  resolveStatsWindow,
  singleDimensionFilter,
  WHATSAPP_STATS_FILTERS,
} from '@switchboard/contracts';
import type {
  RequestContext,
  WhatsAppStatsFilterRequest,
  WhatsAppStatsSeriesRequest,
  WhatsAppStatsSummaryRequest,
} from '@switchboard/contracts';
import type { WhatsAppStatsResponse, WhatsAppStatsSummary } from '@messagebird/sdk';
import { workspaceOf } from '@switchboard/platform';
import { periodOf } from './sms-stats-figures';
import { answeringProblems, WHOLE_WORKSPACE } from '@switchboard/persistence';
import type { StatsScope } from '@switchboard/persistence';
import { whatsappDeltaOf, whatsappFiguresOf } from './whatsapp-stats-figures';
import { WhatsappStatsRepository } from './whatsapp-stats.repository';

/** WhatsApp outbound summary and series, answered from the rollups (ADR 18). */
@Injectable()
export class WhatsappStatsService {
  constructor(private readonly rollups: WhatsappStatsRepository) {}

  /** The one filter's scope: a template by id or slug, a tag by `name` or `name:value`. */
  private async scopeOf(
    workspaceId: string,
    request: WhatsAppStatsFilterRequest,
  ): Promise<StatsScope> {
    const filter = singleDimensionFilter(request, WHATSAPP_STATS_FILTERS);
    if (!filter) return WHOLE_WORKSPACE;
    if (filter.dimension === 'template')
      return {
        dimension: 'template',
        values: await this.rollups.templateIds(workspaceId, filter.value),
      };
    if (filter.dimension === 'tag' && !filter.value.includes(':'))
      return { dimension: 'tag_name', values: [filter.value] };
    return { dimension: filter.dimension, values: [filter.value] };
  }

  summary(
    context: RequestContext,
    request: WhatsAppStatsSummaryRequest,
  ): Promise<WhatsAppStatsSummary> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: 'either' });
      const workspaceId = workspaceOf(context);
      const scope = await this.scopeOf(workspaceId, request);
      const [row, dataAsOf] = await Promise.all([
        this.rollups.totals(workspaceId, scope, window),
        this.rollups.dataAsOf(),
      ]);
      const figures = whatsappFiguresOf(row);
      const summary: WhatsAppStatsSummary = { period: periodOf(window, dataAsOf), ...figures };
      if (request.compare !== 'previous_period') return summary;
      const previous = previousWindow(window);
      const before = whatsappFiguresOf(await this.rollups.totals(workspaceId, scope, previous));
      return {
        ...summary,
        comparison: {
          period: periodOf(previous, dataAsOf),
          ...before,
          delta: whatsappDeltaOf(figures, before),
        },
      };
    });
  }

  series(
    context: RequestContext,
    request: WhatsAppStatsSeriesRequest,
  ): Promise<WhatsAppStatsResponse> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: request.grain });
      const workspaceId = workspaceOf(context);
      const scope = await this.scopeOf(workspaceId, request);
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.series(workspaceId, scope, window, true),
        this.rollups.dataAsOf(),
      ]);
      const byLabel = new Map(rows.map((row) => [row.label, row]));
      return {
        period: { ...periodOf(window, dataAsOf), grain: window.grain },
        data: bucketsOf(window).map((bucket) => {
          const { delivery, engagement, latency } = whatsappFiguresOf(byLabel.get(bucket));
          const { accepted, sent, delivered, failed, rejected } = delivery;
          return {
            bucket,
            delivery: { accepted, sent, delivered, failed, rejected },
            engagement: { read: engagement.read },
            latency,
          };
        }),
      };
    });
  }
}
