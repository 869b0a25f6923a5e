import { Injectable } from '@nestjs/common';
import { bucketsOf, pctChange, previousWindow, resolveStatsWindow } from '@switchboard/contracts';
import type {
  RequestContext,
  WhatsAppInboundPhoneNumbersRequest,
  WhatsAppInboundSeriesRequest,
  WhatsAppInboundSummaryRequest,
} from '@switchboard/contracts';
import type {
  WhatsAppInboundStatsResponse,
  WhatsAppInboundStatsSummaryResponse,
} from '@messagebird/sdk';
import { workspaceOf } from '@switchboard/platform';
import { periodOf } from './sms-stats-figures';
import { limitOf } from './sms-stats.service';
import { answeringProblems } from '@switchboard/persistence';
import { WhatsappStatsRepository } from './whatsapp-stats.repository';

/** Inbound WhatsApp stats: received messages by arrival time (ADR 18). */
@Injectable()
export class WhatsappInboundStatsService {
  constructor(private readonly rollups: WhatsappStatsRepository) {}

  summary(
    context: RequestContext,
    request: WhatsAppInboundSummaryRequest,
  ): Promise<WhatsAppInboundStatsSummaryResponse> {
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
    request: WhatsAppInboundSeriesRequest,
  ): Promise<WhatsAppInboundStatsResponse> {
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

  phoneNumbers(context: RequestContext, request: WhatsAppInboundPhoneNumbersRequest) {
    return answeringProblems(async () => {
      const limit = limitOf(request.limit);
      const window = resolveStatsWindow(request, { forms: 'day' });
      const [rows, dataAsOf] = await Promise.all([
        this.rollups.inboundBreakdown(workspaceOf(context), 'phone_number', window, limit),
        this.rollups.dataAsOf(),
      ]);
      return {
        period: periodOf(window, dataAsOf),
        data: rows.map((row) => ({ phone_number: row.value, received: row.received })),
        total: rows[0]?.total ?? 0,
      };
    });
  }
}
