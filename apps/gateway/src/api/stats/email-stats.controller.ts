import { Controller, Get, Inject } from '@nestjs/common';
import { EmailStatsSubjects } from '@switchboard/contracts';
import type { EmailStatsBreakdown, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  EmailStatsBounceCodesQuery,
  EmailStatsBreakdownQuery,
  EmailStatsBroadcastsQuery,
  EmailStatsCategoriesQuery,
  EmailStatsClientsQuery,
  EmailStatsComplaintTypesQuery,
  EmailStatsLocationsQuery,
  EmailStatsMailboxProvidersQuery,
  EmailStatsSendingIpsQuery,
  EmailStatsSeriesQuery,
  EmailStatsSummaryQuery,
} from './email-stats.dto';
import { statsRoute } from './sms-stats.controller';

const TAG = 'Email stats';
const RULES =
  'days (<= 365) or RFC 3339 hours (<= 720), one form for both bounds; IANA timezone; send-time attribution';

/**
 * Email stats (SDK: `bird.email.stats`), answered by the email service from its rollups
 * (ADR 18). The query's shape is checked here; its rules are the service's.
 */
@Controller('v1/email/stats')
export class EmailStatsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('summary')
  @Route(
    statsRoute(
      TAG,
      `Delivery, engagement and latency for a window: ${RULES}; one dimension filter; compare=previous_period`,
      EmailStatsSummaryQuery,
    ),
  )
  summary(@ValidQuery() query: EmailStatsSummaryQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailStatsSubjects.Summary, { ...query }, context);
  }

  @Get('daily')
  @Route(statsRoute(TAG, 'Figures per local day (<= 365 days), zero-filled', EmailStatsSeriesQuery))
  daily(@ValidQuery() query: EmailStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailStatsSubjects.Series, { ...query, grain: 'day' }, context);
  }

  @Get('hourly')
  @Route(statsRoute(TAG, 'Figures per hour (<= 720 hours), zero-filled', EmailStatsSeriesQuery))
  hourly(@ValidQuery() query: EmailStatsSeriesQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailStatsSubjects.Series, { ...query, grain: 'hour' }, context);
  }

  @Get('tags')
  @Route(
    statsRoute(
      TAG,
      'Per-tag (name:value) figures ranked by sort (limit <= 200, include_trend)',
      EmailStatsBreakdownQuery,
    ),
  )
  tags(@ValidQuery() query: EmailStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('tags', query, context);
  }

  @Get('categories')
  @Route(statsRoute(TAG, 'Per-category figures ranked by sort', EmailStatsCategoriesQuery))
  categories(
    @ValidQuery() query: EmailStatsCategoriesQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('categories', query, context);
  }

  @Get('sending-domains')
  @Route(statsRoute(TAG, 'Per-sending-domain figures ranked by sort', EmailStatsBreakdownQuery))
  sendingDomains(
    @ValidQuery() query: EmailStatsBreakdownQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('sending-domains', query, context);
  }

  @Get('recipient-domains')
  @Route(statsRoute(TAG, 'Per-recipient-domain figures ranked by sort', EmailStatsBreakdownQuery))
  recipientDomains(
    @ValidQuery() query: EmailStatsBreakdownQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('recipient-domains', query, context);
  }

  @Get('templates')
  @Route(statsRoute(TAG, 'Per-template figures ranked by sort', EmailStatsBreakdownQuery))
  templates(@ValidQuery() query: EmailStatsBreakdownQuery, @CallContext() context: RequestContext) {
    return this.breakdown('templates', query, context);
  }

  @Get('broadcasts')
  @Route(statsRoute(TAG, 'Per-broadcast figures ranked by sort', EmailStatsBroadcastsQuery))
  broadcasts(
    @ValidQuery() query: EmailStatsBroadcastsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('broadcasts', query, context);
  }

  @Get('bounce-codes')
  @Route(
    statsRoute(TAG, 'Bounces per SMTP status code, by bounce type', EmailStatsBounceCodesQuery),
  )
  bounceCodes(
    @ValidQuery() query: EmailStatsBounceCodesQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('bounce-codes', query, context);
  }

  @Get('complaint-types')
  @Route(statsRoute(TAG, 'Complaints per feedback type', EmailStatsComplaintTypesQuery))
  complaintTypes(
    @ValidQuery() query: EmailStatsComplaintTypesQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('complaint-types', query, context);
  }

  @Get('sending-ips')
  @Route(
    statsRoute(
      TAG,
      'Per-sending-IP delivery figures (empty: the relay does not report the IP; see the stats guide)',
      EmailStatsSendingIpsQuery,
    ),
  )
  sendingIps(
    @ValidQuery() query: EmailStatsSendingIpsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('sending-ips', query, context);
  }

  @Get('mailbox-providers')
  @Route(
    statsRoute(
      TAG,
      'Per-mailbox-provider figures: consumer domains classified (gmail, microsoft, yahoo, apple, ...)',
      EmailStatsMailboxProvidersQuery,
    ),
  )
  mailboxProviders(
    @ValidQuery() query: EmailStatsMailboxProvidersQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('mailbox-providers', query, context);
  }

  @Get('mailbox-provider-regions')
  @Route(
    statsRoute(
      TAG,
      'Per-provider-region figures (empty: regions are not reported; see the stats guide)',
      EmailStatsMailboxProvidersQuery,
    ),
  )
  mailboxProviderRegions(
    @ValidQuery() query: EmailStatsMailboxProvidersQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.breakdown('mailbox-provider-regions', query, context);
  }

  @Get('locations')
  @Route(
    statsRoute(
      TAG,
      'Opens and clicks per location (empty: locations are not resolved; see the stats guide)',
      EmailStatsLocationsQuery,
    ),
  )
  locations(@ValidQuery() query: EmailStatsLocationsQuery, @CallContext() context: RequestContext) {
    return this.breakdown('locations', query, context);
  }

  @Get('clients')
  @Route(
    statsRoute(
      TAG,
      'Opens and clicks per mail client, system or device type, from their user agents',
      EmailStatsClientsQuery,
    ),
  )
  clients(@ValidQuery() query: EmailStatsClientsQuery, @CallContext() context: RequestContext) {
    return this.breakdown('clients', query, context);
  }

  private breakdown(breakdown: EmailStatsBreakdown, query: object, context: RequestContext) {
    return this.services.send(EmailStatsSubjects.Breakdown, { ...query, breakdown }, context);
  }
}
