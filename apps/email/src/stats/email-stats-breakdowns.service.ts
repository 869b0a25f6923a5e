import { Injectable } from '@nestjs/common';
import {
  EMAIL_STATS_UNKNOWN_BREAKDOWNS,
  rankRows,
  resolveStatsWindow,
  UNKNOWN_COUNTRY,
} from '@switchboard/contracts';
import type {
  EmailStatsBreakdown,
  EmailStatsBreakdownRequest,
  EmailStatsSeriesPoint,
  RequestContext,
  StatsBreakdownReply,
  StatsWindow,
} from '@switchboard/contracts';
import { answeringProblems, VersionedAnswers, WHOLE_WORKSPACE } from '@switchboard/persistence';
import { workspaceOf } from '@switchboard/platform';
import { groupByOf, limitOf, sortOf, trendWindow } from './email-stats-breakdown-rules';
import {
  countsOf,
  engagementCountsOf,
  figuresOf,
  periodOf,
  providerFiguresOf,
  reachedProvider,
  trendPointOf,
} from './email-stats-figures';
import { EmailStatsRepository } from './email-stats.repository';

/** The rollup dimension of each breakdown the platform knows, and the key its rows carry. */
const KNOWN: Partial<Record<EmailStatsBreakdown, { dimension: string; key: string }>> = {
  tags: { dimension: 'tag', key: 'tag' },
  categories: { dimension: 'category', key: 'category' },
  'sending-domains': { dimension: 'sending_domain', key: 'sending_domain' },
  'recipient-domains': { dimension: 'recipient_domain', key: 'recipient_domain' },
  templates: { dimension: 'template', key: 'template_id' },
  broadcasts: { dimension: 'broadcast', key: 'broadcast_id' },
  'bounce-codes': { dimension: 'bounce_code', key: 'smtp_error_code' },
  'complaint-types': { dimension: 'complaint_type', key: 'feedback_type' },
  'mailbox-providers': { dimension: 'mailbox_provider', key: 'mailbox_provider' },
};
const UNKNOWN: ReadonlySet<string> = new Set(EMAIL_STATS_UNKNOWN_BREAKDOWNS);

type Breakdown = StatsBreakdownReply<Record<string, unknown>>;
type Figures = ReturnType<typeof figuresOf>;

/** A row's value of a sort metric: `bounces.hard`, `open_rate`, `delivered`, ... */
export function metricOf(figures: Figures, sort: string): number | null {
  const [block, name] = sort.startsWith('bounces.') ? ['bounces', sort.slice(8)] : ['', sort];
  const delivery = figures.delivery as unknown as Record<string, number | null>;
  const engagement = figures.engagement as unknown as Record<string, number | null>;
  if (block) return (figures.delivery.bounces as unknown as Record<string, number | null>)[name];
  return name in delivery ? delivery[name] : engagement[name];
}

/** Email breakdowns (ADR 18): every `bird.email.stats.by*` operation. */
@Injectable()
export class EmailStatsBreakdownsService {
  /** Answers per rollup version: dashboards asking the same breakdown share one computation. */
  private readonly answers = new VersionedAnswers<Breakdown>();

  constructor(private readonly rollups: EmailStatsRepository) {}

  breakdown(context: RequestContext, request: EmailStatsBreakdownRequest) {
    return answeringProblems(async (): Promise<Breakdown> => {
      const sort = sortOf(request);
      groupByOf(request);
      const limit = limitOf(request.limit);
      const hourlyTrend = request.include_trend && request.trend_grain === 'hourly';
      const window = resolveStatsWindow(request, {
        forms: 'day',
        defaultDays: hourlyTrend ? 29 : 30,
      });
      const trend = trendWindow(request, window, limit);
      const workspaceId = workspaceOf(context);
      const { dataAsOf, version } = await this.rollups.freshness();
      const period = periodOf(window, dataAsOf);
      if (request.breakdown === 'locations')
        return { period, ...(await this.unresolvedLocation(workspaceId, request, window)) };
      // Sending IPs and provider regions: never learnt here (the stats guide).
      if (UNKNOWN.has(request.breakdown)) return { period, data: [], total: 0 };
      if (request.breakdown === 'clients')
        return {
          period,
          ...(await this.clients(workspaceId, request, { window, sort, limit })),
        };
      const asked = JSON.stringify([workspaceId, request, window.from, window.to]);
      return this.answers.answer(asked, version, async () => ({
        ...(await this.compute(workspaceId, request, { window, trend, sort, limit })),
        period,
      }));
    });
  }

  /**
   * Opens and clicks per mail client, system or device type (`group_by`), as their user agents
   * told (`mail-clients.ts`); the SDK's row names the facet asked and nulls the other two.
   */
  private async clients(
    workspaceId: string,
    request: EmailStatsBreakdownRequest,
    asked: { window: StatsWindow; sort: string; limit: number },
  ): Promise<Omit<Breakdown, 'period'>> {
    const facet = groupByOf(request) as 'email_client' | 'os' | 'device_type';
    const dimension = request.category === undefined ? facet : `${facet}@${request.category}`;
    const counted = await this.rollups.breakdownCounts(workspaceId, dimension, asked.window);
    const rows = counted
      .map((row) => ({ value: row.value, engagement: engagementCountsOf(countsOf(row)) }))
      .filter(({ engagement }) => Object.values(engagement).some((count) => count > 0));
    const ranked = rankRows(
      rows,
      (row) => row.engagement[asked.sort as keyof typeof row.engagement],
      (row) => row.value,
    ).slice(0, asked.limit);
    return {
      data: ranked.map((row) => ({
        email_client: null,
        os: null,
        device_type: null,
        [facet]: row.value,
        engagement: row.engagement,
      })),
      total: rows.length,
    };
  }

  /**
   * Opens and clicks are real but their location is never resolved here: all of them make one
   * row of the unknown country `ZZ` (region and city unknown, null), none when there are none.
   */
  private async unresolvedLocation(
    workspaceId: string,
    request: EmailStatsBreakdownRequest,
    window: StatsWindow,
  ): Promise<Omit<Breakdown, 'period'>> {
    const scope =
      request.category === undefined
        ? WHOLE_WORKSPACE
        : { dimension: 'category', values: [request.category] };
    const engagement = engagementCountsOf(
      countsOf(await this.rollups.totals(workspaceId, scope, window)),
    );
    if (Object.values(engagement).every((count) => count === 0)) return { data: [], total: 0 };
    return {
      data: [{ country: UNKNOWN_COUNTRY, region: null, city: null, engagement }],
      total: 1,
    };
  }

  private async compute(
    workspaceId: string,
    request: EmailStatsBreakdownRequest,
    asked: { window: StatsWindow; trend?: StatsWindow; sort: string; limit: number },
  ): Promise<Omit<Breakdown, 'period'>> {
    const { window, trend, sort, limit } = asked;
    const known = KNOWN[request.breakdown] as { dimension: string; key: string };
    const key = known.key;
    const dimension =
      request.category !== undefined && request.breakdown !== 'categories'
        ? `${known.dimension}@${request.category}`
        : known.dimension;
    const counted = await this.rollups.breakdownCounts(workspaceId, dimension, window);
    const rows = counted.map((row) => ({ value: row.value, counts: countsOf(row) }));
    if (request.breakdown === 'bounce-codes' || request.breakdown === 'complaint-types') {
      const shaped = rows.map(({ value, counts }) =>
        request.breakdown === 'complaint-types'
          ? { feedback_type: value, complained: counts.complained }
          : {
              smtp_error_code: value,
              bounced: counts.bounced,
              bounces: {
                hard: counts.hard,
                soft: counts.soft,
                admin: counts.admin,
                block: counts.block,
                undetermined: counts.undetermined,
              },
            },
      );
      const metric = (row: Record<string, unknown>) =>
        sort === 'bounced' || sort === 'complained'
          ? (row[sort] as number)
          : (row.bounces as Record<string, number>)[sort.slice(8)];
      const ranked = rankRows(shaped, metric, (row) => String(Object.values(row)[0]));
      return { data: ranked.slice(0, limit), total: shaped.length };
    }
    const providers = request.breakdown === 'mailbox-providers';
    const figured = rows
      .filter(({ counts }) =>
        providers ? reachedProvider(counts) : Object.values(counts).some((count) => count > 0),
      )
      .map((row) => ({ value: row.value, figures: figuresOf(row.counts, false) }));
    const ranked = rankRows(
      figured,
      (row) => metricOf(row.figures, sort),
      (row) => row.value,
    ).slice(0, limit);
    const values = ranked.map((row) => row.value);
    const [sketches, trends] = await Promise.all([
      this.rollups.breakdownSketches(workspaceId, dimension, values, window),
      trend ? this.rollups.breakdownTrends(workspaceId, dimension, values, trend) : [],
    ]);
    const sketchOf = new Map(sketches.map((row) => [row.value, row]));
    const trendOf = new Map<string, EmailStatsSeriesPoint[]>();
    for (const point of trends)
      trendOf.set(point.value, [
        ...(trendOf.get(point.value) ?? []),
        trendPointOf(point.label, countsOf(point)),
      ]);
    return {
      data: ranked.map((row) => {
        const latency = figuresOf(sketchOf.get(row.value), false).latency;
        return {
          [key]: row.value,
          delivery: row.figures.delivery,
          engagement: row.figures.engagement,
          latency,
          ...(providers ? providerFiguresOf({ ...row.figures, latency }) : {}),
          ...(trend ? { trend: trendOf.get(row.value) ?? [] } : {}),
        };
      }),
      total: figured.length,
    };
  }
}
