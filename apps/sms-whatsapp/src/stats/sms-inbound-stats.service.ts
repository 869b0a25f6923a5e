import { Injectable } from '@nestjs/common';
import { bucketsOf, pctChange, previousWindow, resolveStatsWindow } from '@switchboard/contracts';
import type {
  RequestContext,
  SmsInboundBreakdownRequest,
  SmsInboundSeriesRequest,
  SmsInboundStatsBreakdown,
  SmsInboundSummaryRequest,
} from '@switchboard/contracts';
import type { SmsInboundStatsResponse, SmsInboundStatsSummaryResponse } from '@messagebird/sdk';
import { workspaceOf } from '@switchboard/platform';
import { periodOf } from './sms-stats-figures';
import { SmsStatsRepository } from './sms-stats.repository';
import { limitOf } from './sms-stats.service';
import { answeringProblems } from '@switchboard/persistence';

const BREAKDOWNS: Record<SmsInboundStatsBreakdown, { dimension: string; key: string }> = {
  countries: { dimension: 'country', key: 'country' },
  operators: { dimension: 'operator', key: 'mcc_mnc' },
  numbers: { dimension: 'number', key: 'number' },
};

/** Inbound SMS stats: received messages by arrival time (ADR 18). */
@Injectable()
export class SmsInboundStatsService {
  constructor(private readonly rollups: SmsStatsRepository) {}

  summary(
    context: RequestContext,
    request: SmsInboundSummaryRequest,
  ): Promise<SmsInboundStatsSummaryResponse> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: 'either' });
      const workspaceId = workspaceOf(context);
      const [received, dataAsOf] = await Promise.all([
        this.rollups.inboundTotal(workspaceId, window),
        this.rollups.dataAsOf(),
      ]);
      const answer = { period: periodOf(window, dataAsOf), received };
      if (request.compare !== 'previous_period') return answer;
      const previous = previousWindow(window);
      const before = await this.rollups.inboundTotal(workspaceId, previous);
      return {
        ...answer,
        comparison: {
          period: periodOf(previous, dataAsOf),
          received: before,
          delta: { received_pct_change: pctChange(received, before) },
        },
      };
    });
  }

  series(
    context: RequestContext,
    request: SmsInboundSeriesRequest,
  ): Promise<SmsInboundStatsResponse> {
    return answeringProblems(async () => {
      const window = resolveStatsWindow(request, { forms: request.grain });
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.inboundSeries(workspaceOf(context), window),
        this.rollups.dataAsOf(),
      ]);
      const byLabel = new Map(rows.map((row) => [row.label, row.received]));
      return {
        period: { ...periodOf(window, dataAsOf), grain: window.grain },
        data: bucketsOf(window).map((bucket) => ({ bucket, received: byLabel.get(bucket) ?? 0 })),
      };
    });
  }

  breakdown(context: RequestContext, request: SmsInboundBreakdownRequest) {
    return answeringProblems(async () => {
      const { dimension, key } = BREAKDOWNS[request.breakdown];
      const limit = limitOf(request.limit);
      const window = resolveStatsWindow(request, { forms: 'day' });
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.inboundBreakdown(workspaceOf(context), dimension, window, limit),
        this.rollups.dataAsOf(),
      ]);
      return {
        period: periodOf(window, dataAsOf),
        data: rows.map((row) => ({ [key]: row.value, received: row.received })),
        total: rows[0]?.total ?? 0,
      } as never;
    });
  }
}
