import { Controller, Get, Inject } from '@nestjs/common';
import { WhatsAppStatsSubjects } from '@switchboard/contracts';
import type { RequestContext, WhatsAppStatsBreakdown } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { statsRoute } from './sms-stats.controller';
import {
  StatsCompareQuery,
  StatsLimitQuery,
  StatsWindowQuery,
  WhatsAppStatsSeriesQuery,
  WhatsAppStatsSummaryQuery,
} from './stats.dto';

const OUT = 'WhatsApp stats';
const IN = 'WhatsApp inbound stats';
const RULES =
  'days (<= 365) or RFC 3339 hours (<= 720), one form for both bounds; IANA timezone; send-time attribution';
const RANKED = 'ranked by accepted volume (limit <= 200)';

/**
 * WhatsApp stats (SDK: `bird.whatsapp.stats`), answered by the sms-whatsapp service from its
 * rollups (ADR 18). The query's shape is checked here; its rules are the service's.
 */
@Controller('v1/whatsapp/stats')
export class WhatsAppStatsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('summary')
  @Route(
    statsRoute(
      OUT,
      `Delivery, engagement and latency for a window: ${RULES}; one filter (template, category, phone_number, tag); compare=previous_period`,
      WhatsAppStatsSummaryQuery,
    ),
  )
  summary(@ValidQuery() query: WhatsAppStatsSummaryQuery, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppStatsSubjects.Summary, { ...query }, context);
  }

  @Get('daily')
  @Route(
    statsRoute(
      OUT,
      'Counts, reads and latency per local day (<= 365 days), zero-filled',
      WhatsAppStatsSeriesQuery,
    ),
  )
  daily(@ValidQuery() query: WhatsAppStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppStatsSubjects.Series, { ...query, grain: 'day' }, context);
  }

  @Get('hourly')
  @Route(
    statsRoute(
      OUT,
      'Counts, reads and latency per hour (<= 720 hours), zero-filled',
      WhatsAppStatsSeriesQuery,
    ),
  )
  hourly(@ValidQuery() query: WhatsAppStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppStatsSubjects.Series, { ...query, grain: 'hour' }, context);
  }

  @Get('countries')
  @Route(
    statsRoute(OUT, `Per-destination-country figures (ZZ: unresolved), ${RANKED}`, StatsLimitQuery),
  )
  countries(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('countries', query, context);
  }

  @Get('error-codes')
  @Route(
    statsRoute(OUT, 'Failed messages per error code, most first (limit <= 200)', StatsLimitQuery),
  )
  errorCodes(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('error-codes', query, context);
  }

  @Get('phone-numbers')
  @Route(statsRoute(OUT, `Per-business-number figures, ${RANKED}`, StatsLimitQuery))
  phoneNumbers(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('phone-numbers', query, context);
  }

  @Get('tags')
  @Route(statsRoute(OUT, `Per-tag (name:value) figures, ${RANKED}`, StatsLimitQuery))
  tags(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('tags', query, context);
  }

  @Get('templates')
  @Route(statsRoute(OUT, `Per-template figures, ${RANKED}`, StatsLimitQuery))
  templates(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('templates', query, context);
  }

  @Get('template-categories')
  @Route(statsRoute(OUT, `Per-template-category figures, ${RANKED}`, StatsLimitQuery))
  templateCategories(@ValidQuery() query: StatsLimitQuery, @CallContext() context: RequestContext) {
    return this.breakdown('template-categories', query, context);
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
    return this.services.send(WhatsAppStatsSubjects.InboundSummary, { ...query }, context);
  }

  @Get('inbound/daily')
  @Route(statsRoute(IN, 'Messages received per local day, zero-filled', StatsWindowQuery))
  inboundDaily(@ValidQuery() query: StatsWindowQuery, @CallContext() context: RequestContext) {
    return this.services.send(
      WhatsAppStatsSubjects.InboundSeries,
      { ...query, grain: 'day' },
      context,
    );
  }

  @Get('inbound/hourly')
  @Route(statsRoute(IN, 'Messages received per hour, zero-filled', StatsWindowQuery))
  inboundHourly(@ValidQuery() query: StatsWindowQuery, @CallContext() context: RequestContext) {
    return this.services.send(
      WhatsAppStatsSubjects.InboundSeries,
      { ...query, grain: 'hour' },
      context,
    );
  }

  @Get('inbound/phone-numbers')
  @Route(
    statsRoute(
      IN,
      'Messages received per business number, most first (limit <= 200)',
      StatsLimitQuery,
    ),
  )
  inboundPhoneNumbers(
    @ValidQuery() query: StatsLimitQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(WhatsAppStatsSubjects.InboundPhoneNumbers, { ...query }, context);
  }

  private breakdown(
    breakdown: WhatsAppStatsBreakdown,
    query: StatsLimitQuery,
    context: RequestContext,
  ) {
    return this.services.send(WhatsAppStatsSubjects.Breakdown, { ...query, breakdown }, context);
  }
}
