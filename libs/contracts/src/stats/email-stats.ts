import type {
  EmailStatsBySendingIpResponse,
  EmailStatsResponse,
  EmailStatsSummary,
  EmailStatsTagsResponse,
} from '@messagebird/sdk';
import type { Rpc } from '../rpc';
import type { StatsBreakdownReply, StatsWindowRequest } from './sms-stats';

/** The email stats operations of the email service (SDK `bird.email.stats`). */
export const EmailStatsSubjects = {
  Summary: 'email.stats.summary',
  Series: 'email.stats.series',
  Breakdown: 'email.stats.breakdown',
} as const;

/** The dimension filters of summary, daily and hourly (at most one per request). */
export const EMAIL_STATS_FILTERS = [
  'category',
  'sending_domain',
  'tag',
  'sending_ip',
  'recipient_domain',
  'template',
] as const;

/** Breakdowns whose rows carry the full delivery, engagement and latency block. */
export const EMAIL_STATS_FULL_BREAKDOWNS = [
  'tags',
  'categories',
  'sending-domains',
  'recipient-domains',
  'templates',
  'broadcasts',
] as const;
/** Breakdowns of dimensions the platform never learns (see the stats guide): always empty. */
export const EMAIL_STATS_UNKNOWN_BREAKDOWNS = ['sending-ips', 'mailbox-provider-regions'] as const;
export const EMAIL_STATS_BREAKDOWNS = [
  ...EMAIL_STATS_FULL_BREAKDOWNS,
  ...EMAIL_STATS_UNKNOWN_BREAKDOWNS,
  // From the delivery stage on: no acceptance, processing or rejection (the SDK's rows).
  'mailbox-providers',
  // Opens and clicks only, per `group_by` facet.
  'clients',
  'locations',
  'bounce-codes',
  'complaint-types',
] as const;
export type EmailStatsBreakdown = (typeof EMAIL_STATS_BREAKDOWNS)[number];

export const EMAIL_STATS_SORT_METRICS = [
  'processed',
  'delivered',
  'bounced',
  'complained',
  'deferred',
  'rejected',
  'oob_bounces',
  'bounces.hard',
  'bounces.soft',
  'bounces.admin',
  'bounces.block',
  'bounces.undetermined',
  'opens',
  'opens_non_prefetched',
  'unique_opens',
  'unique_opens_non_prefetched',
  'clicks',
  'unique_clicks',
  'unsubscribes',
  'delivery_rate',
  'bounce_rate',
  'complaint_rate',
  'open_rate',
  'click_rate',
  'unsubscribe_rate',
  'bounces.hard_rate',
  'bounces.soft_rate',
  'bounces.admin_rate',
  'bounces.block_rate',
  'bounces.undetermined_rate',
] as const;
/** Sending IPs and mailbox providers: attribution starts at delivery. */
export const EMAIL_DELIVERY_SORT_METRICS = EMAIL_STATS_SORT_METRICS.filter(
  (metric) => !['processed', 'rejected', 'oob_bounces'].includes(metric),
);
export const EMAIL_SENDING_IP_SORT_METRICS = EMAIL_DELIVERY_SORT_METRICS.filter(
  (metric) =>
    !/^(opens|opens_non_prefetched|unique_opens|unique_opens_non_prefetched|clicks|unique_clicks|unsubscribes|open_rate|click_rate|unsubscribe_rate)$/.test(
      metric,
    ),
);
export const EMAIL_ENGAGEMENT_SORT_METRICS = [
  'opens',
  'opens_non_prefetched',
  'unique_opens',
  'unique_opens_non_prefetched',
  'clicks',
  'unique_clicks',
] as const;
export const EMAIL_BOUNCE_CODE_SORT_METRICS = [
  'bounced',
  'bounces.hard',
  'bounces.soft',
  'bounces.admin',
  'bounces.block',
  'bounces.undetermined',
] as const;

export interface EmailStatsFilterRequest extends StatsWindowRequest {
  category?: string;
  sending_domain?: string;
  tag?: string;
  sending_ip?: string;
  recipient_domain?: string;
  template?: string;
}

export interface EmailStatsSummaryRequest extends EmailStatsFilterRequest {
  compare?: 'previous_period';
}

export interface EmailStatsSeriesRequest extends EmailStatsFilterRequest {
  grain: 'day' | 'hour';
}

export interface EmailStatsBreakdownRequest extends StatsWindowRequest {
  breakdown: EmailStatsBreakdown;
  category?: string;
  sort?: string;
  limit?: number;
  include_trend?: boolean;
  trend_grain?: 'daily' | 'hourly';
  group_by?: string;
}

export interface EmailStatsRpc {
  [EmailStatsSubjects.Summary]: Rpc<EmailStatsSummaryRequest, EmailStatsSummary>;
  [EmailStatsSubjects.Series]: Rpc<EmailStatsSeriesRequest, EmailStatsResponse>;
  [EmailStatsSubjects.Breakdown]: Rpc<EmailStatsBreakdownRequest, StatsBreakdownReply<unknown>>;
}

/** The SDK's blocks, by their place in its responses. */
export type EmailDeliveryStats = EmailStatsSummary['delivery'];
export type EmailEngagementStats = EmailStatsSummary['engagement'];
export type EmailLatencyStats = EmailStatsSummary['latency'];
export type EmailStatsComparisonDelta = NonNullable<EmailStatsSummary['comparison']>['delta'];
export type EmailStatsPoint = EmailStatsResponse['data'][number];
export type EmailStatsSeriesPoint = NonNullable<
  EmailStatsTagsResponse['data'][number]['trend']
>[number];
export type EmailDeliveryLatencyStats = EmailStatsBySendingIpResponse['data'][number]['latency'];
