import type {
  SmsInboundStatsByCountryResponse,
  SmsInboundStatsByNumberResponse,
  SmsInboundStatsByOperatorResponse,
  SmsInboundStatsResponse,
  SmsInboundStatsSummaryResponse,
  SmsStatsByStatusResponse,
  SmsStatsResponse,
  SmsStatsSummary,
} from '@messagebird/sdk';
import type { Rpc } from '../rpc';

/** The SMS stats operations of the sms-whatsapp service (SDK `bird.sms.stats`). */
export const SmsStatsSubjects = {
  Summary: 'sms.stats.summary',
  Series: 'sms.stats.series',
  Breakdown: 'sms.stats.breakdown',
  Statuses: 'sms.stats.statuses',
  InboundSummary: 'sms.stats.inbound-summary',
  InboundSeries: 'sms.stats.inbound-series',
  InboundBreakdown: 'sms.stats.inbound-breakdown',
} as const;

/** The outbound dimensions: a filter of summary/daily/hourly, or a breakdown. */
export const SMS_STATS_FILTERS = ['originator', 'country', 'category', 'carrier'] as const;
export const SMS_STATS_BREAKDOWNS = [
  'originators',
  'countries',
  'categories',
  'carriers',
  'error-codes',
  'tags',
] as const;
export type SmsStatsBreakdown = (typeof SMS_STATS_BREAKDOWNS)[number];
export const SMS_INBOUND_STATS_BREAKDOWNS = ['countries', 'operators', 'numbers'] as const;
export type SmsInboundStatsBreakdown = (typeof SMS_INBOUND_STATS_BREAKDOWNS)[number];

export const SMS_STATS_SORT_METRICS = [
  'accepted',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'rejected',
  'expired',
  'delivery_rate',
  'failure_rate',
] as const;
export type SmsStatsSortMetric = (typeof SMS_STATS_SORT_METRICS)[number];
export const SMS_STATS_LIFECYCLE_SORT_METRICS = SMS_STATS_SORT_METRICS.slice(0, 7);

/** The window every stats request carries, as the query gave it. */
export interface StatsWindowRequest {
  from?: string;
  to?: string;
  timezone?: string;
}

export interface SmsStatsFilterRequest extends StatsWindowRequest {
  originator?: string;
  country?: string;
  category?: string;
  carrier?: string;
}

export interface SmsStatsSummaryRequest extends SmsStatsFilterRequest {
  compare?: 'previous_period';
}

export interface SmsStatsSeriesRequest extends SmsStatsFilterRequest {
  grain: 'day' | 'hour';
}

export interface SmsStatsBreakdownRequest extends StatsWindowRequest {
  breakdown: SmsStatsBreakdown;
  sort?: SmsStatsSortMetric;
  limit?: number;
  include_trend?: boolean;
  trend_grain?: 'daily' | 'hourly';
}

export interface SmsInboundSummaryRequest extends StatsWindowRequest {
  compare?: 'previous_period';
}

export interface SmsInboundSeriesRequest extends StatsWindowRequest {
  grain: 'day' | 'hour';
}

export interface SmsInboundBreakdownRequest extends StatsWindowRequest {
  breakdown: SmsInboundStatsBreakdown;
  limit?: number;
}

/** Every breakdown's answer: a period, its ranked rows, and how many there were before `limit`. */
export interface StatsBreakdownReply<Row> {
  period: { from: string; to: string; data_as_of: string | null };
  data: Row[];
  total: number;
}

export interface SmsStatsRpc {
  [SmsStatsSubjects.Summary]: Rpc<SmsStatsSummaryRequest, SmsStatsSummary>;
  [SmsStatsSubjects.Series]: Rpc<SmsStatsSeriesRequest, SmsStatsResponse>;
  [SmsStatsSubjects.Breakdown]: Rpc<SmsStatsBreakdownRequest, StatsBreakdownReply<unknown>>;
  [SmsStatsSubjects.Statuses]: Rpc<StatsWindowRequest, SmsStatsByStatusResponse>;
  [SmsStatsSubjects.InboundSummary]: Rpc<SmsInboundSummaryRequest, SmsInboundStatsSummaryResponse>;
  [SmsStatsSubjects.InboundSeries]: Rpc<SmsInboundSeriesRequest, SmsInboundStatsResponse>;
  [SmsStatsSubjects.InboundBreakdown]: Rpc<
    SmsInboundBreakdownRequest,
    | SmsInboundStatsByCountryResponse
    | SmsInboundStatsByOperatorResponse
    | SmsInboundStatsByNumberResponse
  >;
}

/** The SDK's blocks, by their place in its responses (the SDK exports the responses only). */
export type SmsDeliveryStats = SmsStatsSummary['delivery'];
export type SmsLatencyStats = SmsStatsSummary['latency'];
export type SmsStatsComparisonDelta = NonNullable<SmsStatsSummary['comparison']>['delta'];
export type SmsStatsPoint = SmsStatsResponse['data'][number];
export type SmsDeliveryCounts = SmsStatsPoint['delivery'];
