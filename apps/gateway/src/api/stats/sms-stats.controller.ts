import { Controller, Get, Inject } from '@nestjs/common';
import { SmsStatsSubjects } from '@switchboard/contracts';
import type {
  RequestContext,
  SmsInboundStatsBreakdown,
  SmsStatsBreakdown,
} from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import type { RouteDeclaration } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  SmsStatsBreakdownQuery,
  SmsStatsErrorCodesQuery,
  SmsStatsSeriesQuery,
  SmsStatsSummaryQuery,
  StatsCompareQuery,
  StatsLimitQuery,
  StatsWindowQuery,
} from './stats.dto';

/** A read route of the stats: any role of the workspace, the read rate limit. */
export const statsRoute = (
  tag: string,
  summary: string,
  query: RouteDeclaration['query'],
): RouteDeclaration => ({
  tag,
  auth: 'api',
  role: 'read',
  rateLimit: 'read',
  summary,
  query,
  response: { status: 200, description: summary },
});

const OUT = 'SMS stats';
const IN = 'SMS inbound stats';
const RULES =
  'days (<= 365) or RFC 3339 hours (<= 720), one form for both bounds; IANA timezone; send-time attribution';

/**
 * SMS stats (SDK: `bird.sms.stats`), answered by the sms-whatsapp service from its rollups
 * (ADR 18). The query's shape is checked here; its rules are the service's.
 */
@Controller('v1/sms/stats')
export class SmsStatsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('summary')
  @Route(
    statsRoute(
      OUT,
      `Lifecycle counts, rates and latency for a window: ${RULES}; one dimension filter; compare=previous_period`,
      SmsStatsSummaryQuery,
    ),
  )
  summary(@ValidQuery() query: SmsStatsSummaryQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.Summary, { ...query }, context);
  }

  @Get('daily')
  @Route(
    statsRoute(
      OUT,
      'Lifecycle counts per local day (<= 365 days), zero-filled',
      SmsStatsSeriesQuery,
    ),
  )
  daily(@ValidQuery() query: SmsStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.Series, { ...query, grain: 'day' }, context);
  }

  @Get('hourly')
  @Route(
    statsRoute(OUT, 'Lifecycle counts per hour (<= 720 hours), zero-filled', SmsStatsSeriesQuery),
  )
  hourly(@ValidQuery() query: SmsStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.Series, { ...query, grain: 'hour' }, context);
  }

  @Get('statuses')
  @Route(
    statsRoute(OUT, 'Messages per lifecycle status in the window, most first', StatsWindowQuery),
  )
  statuses(@ValidQuery() query: StatsWindowQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.Statuses, { ...query }, context);
  }

  @Get('originators')
  @Route(
    statsRoute(
      OUT,
      'Per-originator figures ranked by sort (limit <= 200, include_trend)',
      SmsStatsBreakdownQuery,
    ),
  )
  originators(@ValidQuery() query: SmsStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('originators', query, context);
  }

  @Get('countries')
  @Route(
    statsRoute(
      OUT,
      'Per-destination-country figures (ZZ: unresolved) ranked by sort',
      SmsStatsBreakdownQuery,
    ),
  )
  countries(@ValidQuery() query: SmsStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('countries', query, context);
  }

  @Get('categories')
  @Route(statsRoute(OUT, 'Per-category figures ranked by sort', SmsStatsBreakdownQuery))
  categories(@ValidQuery() query: SmsStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('categories', query, context);
  }

  @Get('carriers')
  @Route(statsRoute(OUT, 'Per-carrier figures ranked by sort', SmsStatsBreakdownQuery))
  carriers(@ValidQuery() query: SmsStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('carriers', query, context);
  }

  @Get('error-codes')
  @Route(
    statsRoute(
      OUT,
      'Per-error-code figures ranked by a lifecycle count (default failed)',
      SmsStatsErrorCodesQuery,
    ),
  )
  errorCodes(@ValidQuery() query: SmsStatsErrorCodesQuery, @CallContext() context: RequestContext) {
    return this.breakdown('error-codes', query, context);
  }

  @Get('tags')
  @Route(statsRoute(OUT, 'Per-tag (name:value) figures ranked by sort', SmsStatsBreakdownQuery))
  tags(@ValidQuery() query: SmsStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('tags', query, context);
  }

  @Get('inbound/summary')
  @Route(
    statsRoute(
      IN,
      `Messages received in a window: ${RULES}; compare=previous_period`,
      StatsCompareQuery,
    ),
  )
  inboundSummary(@ValidQuery() query: StatsCompareQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.InboundSummary, { ...query }, context);
  }

  @Get('inbound/daily')
  @Route(statsRoute(IN, 'Messages received per local day, zero-filled', StatsWindowQuery))
  inboundDaily(@ValidQuery() query: StatsWindowQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.InboundSeries, { ...query, grain: 'day' }, context);
  }

  @Get('inbound/hourly')
  @Route(statsRoute(IN, 'Messages received per hour, zero-filled', StatsWindowQuery))
  inboundHourly(@ValidQuery() query: StatsWindowQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsStatsSubjects.InboundSeries, { ...query, grain: 'hour' }, context);
  }

  @Get('inbound/countries')
  @Route(statsRoute(IN, 'Messages received per country of the receiving number', StatsLimitQuery))
  inboundCountries(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.inboundBreakdown('countries', query, context);
  }

  @Get('inbound/operators')
  @Route(statsRoute(IN, "Messages received per sender's operator (mcc_mnc)", StatsLimitQuery))
  inboundOperators(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.inboundBreakdown('operators', query, context);
  }

  @Get('inbound/numbers')
  @Route(statsRoute(IN, 'Messages received per number of the workspace', StatsLimitQuery))
  inboundNumbers(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.inboundBreakdown('numbers', query, context);
  }

  private breakdown(
    breakdown: SmsStatsBreakdown,
    query: SmsStatsBreakdownQuery,
    context: RequestContext,
  ) {
    return this.services.send(SmsStatsSubjects.Breakdown, { ...query, breakdown }, context);
  }

  private inboundBreakdown(
    breakdown: SmsInboundStatsBreakdown,
    query: StatsLimitQuery,
    context: RequestContext,
  ) {
    return this.services.send(SmsStatsSubjects.InboundBreakdown, { ...query, breakdown }, context);
  }
}
