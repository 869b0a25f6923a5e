import { Injectable } from '@nestjs/common';
import { rankRows, resolveStatsWindow } from '@switchboard/contracts';
import type {
  RequestContext,
  StatsBreakdownReply,
  StatsWindow,
  WhatsAppStatsBreakdown,
  WhatsAppStatsBreakdownRequest,
} from '@switchboard/contracts';
import { answeringProblems, VersionedAnswers } from '@switchboard/persistence';
import { workspaceOf } from '@switchboard/platform';
import { periodOf } from './sms-stats-figures';
import { limitOf } from './sms-stats.service';
import { whatsappFiguresOf } from './whatsapp-stats-figures';
import { WhatsappStatsRepository } from './whatsapp-stats.repository';

type Breakdown = StatsBreakdownReply<Record<string, unknown>>;

/** Each breakdown's rollup dimension and the key its rows carry. */
const BREAKDOWNS: Record<WhatsAppStatsBreakdown, { dimension: string; key: string }> = {
  countries: { dimension: 'country', key: 'country' },
  'error-codes': { dimension: 'error_code', key: 'error_code' },
  'phone-numbers': { dimension: 'phone_number', key: 'phone_number' },
  tags: { dimension: 'tag', key: 'tag' },
  templates: { dimension: 'template', key: 'template_id' },
  'template-categories': { dimension: 'category', key: 'category' },
};

/**
 * WhatsApp breakdowns by country, error code, number, tag, template and category, ranked by
 * accepted volume (error codes by failures) and capped at `limit` (ADR 18).
 */
@Injectable()
export class WhatsappStatsBreakdownsService {
  /** Answers per rollup version: dashboards asking the same breakdown share one computation. */
  private readonly answers = new VersionedAnswers<Breakdown>();

  constructor(private readonly rollups: WhatsappStatsRepository) {}

  breakdown(context: RequestContext, request: WhatsAppStatsBreakdownRequest) {
    return answeringProblems(async (): Promise<Breakdown> => {
      const limit = limitOf(request.limit);
      const window = resolveStatsWindow(request, { forms: 'day' });
      const workspaceId = workspaceOf(context);
      const { dataAsOf, version } = await this.rollups.freshness();
      const asked = JSON.stringify([workspaceId, request, window.from, window.to]);
      return this.answers.answer(asked, version, async () => ({
        ...(await this.compute(workspaceId, request.breakdown, window, limit)),
        period: periodOf(window, dataAsOf),
      }));
    });
  }

  private async compute(
    workspaceId: string,
    breakdown: WhatsAppStatsBreakdown,
    window: StatsWindow,
    limit: number,
  ): Promise<Omit<Breakdown, 'period'>> {
    const { dimension, key } = BREAKDOWNS[breakdown];
    const counted = await this.rollups.breakdownCounts(workspaceId, dimension, window);
    if (breakdown === 'error-codes') {
      const failures = counted.filter((row) => row.failed > 0);
      const ranked = rankRows(
        failures,
        (row) => row.failed,
        (row) => row.value,
      ).slice(0, limit);
      return {
        data: ranked.map((row) => ({ error_code: row.value, count: row.failed })),
        total: failures.length,
      };
    }
    const ranked = rankRows(
      counted,
      (row) => row.accepted,
      (row) => row.value,
    ).slice(0, limit);
    const sketches = await this.rollups.breakdownSketches(
      workspaceId,
      dimension,
      ranked.map((row) => row.value),
      window,
    );
    const sketchOf = new Map(sketches.map((row) => [row.value, row]));
    return {
      data: ranked.map((row) => ({
        [key]: row.value,
        // Every number a WhatsApp stat row names is one the workspace connected itself.
        ...(breakdown === 'phone-numbers' ? { shared: false } : {}),
        ...whatsappFiguresOf({ ...row, ...sketchOf.get(row.value) }),
      })),
      total: counted.length,
    };
  }
}
