import type {
  WhatsAppInboundStatsResponse,
  WhatsAppInboundStatsSummaryResponse,
  WhatsAppStatsResponse,
  WhatsAppStatsSummary,
} from '@messagebird/sdk';
import type { Rpc } from '../rpc';
import type { StatsBreakdownReply, StatsWindowRequest } from './sms-stats';

/** The WhatsApp stats operations of the sms-whatsapp service (SDK `bird.whatsapp.stats`). */
export const WhatsAppStatsSubjects = {
  Summary: 'whatsapp.stats.summary',
  Series: 'whatsapp.stats.series',
  Breakdown: 'whatsapp.stats.breakdown',
  InboundSummary: 'whatsapp.stats.inbound-summary',
  InboundSeries: 'whatsapp.stats.inbound-series',
  InboundPhoneNumbers: 'whatsapp.stats.inbound-phone-numbers',
} as const;

export const WHATSAPP_STATS_FILTERS = ['template', 'category', 'phone_number', 'tag'] as const;
export const WHATSAPP_STATS_BREAKDOWNS = [
  'countries',
  'error-codes',
  'phone-numbers',
  'tags',
  'templates',
  'template-categories',
] as const;
export type WhatsAppStatsBreakdown = (typeof WHATSAPP_STATS_BREAKDOWNS)[number];

export interface WhatsAppStatsFilterRequest extends StatsWindowRequest {
  template?: string;
  category?: string;
  phone_number?: string;
  tag?: string;
}

export interface WhatsAppStatsSummaryRequest extends WhatsAppStatsFilterRequest {
  compare?: 'previous_period';
}

export interface WhatsAppStatsSeriesRequest extends WhatsAppStatsFilterRequest {
  grain: 'day' | 'hour';
}

export interface WhatsAppStatsBreakdownRequest extends StatsWindowRequest {
  breakdown: WhatsAppStatsBreakdown;
  limit?: number;
}

export interface WhatsAppInboundSummaryRequest extends StatsWindowRequest {
  compare?: 'previous_period';
}

export interface WhatsAppInboundSeriesRequest extends StatsWindowRequest {
  grain: 'day' | 'hour';
}

export interface WhatsAppInboundPhoneNumbersRequest extends StatsWindowRequest {
  limit?: number;
}

/** The SDK's blocks, by their place in its responses. */
export type WhatsAppDeliveryStats = WhatsAppStatsSummary['delivery'];
export type WhatsAppEngagementStats = WhatsAppStatsSummary['engagement'];
export type WhatsAppLatencyStats = WhatsAppStatsSummary['latency'];
export type WhatsAppStatsComparisonDelta = NonNullable<WhatsAppStatsSummary['comparison']>['delta'];
export type WhatsAppStatsPoint = WhatsAppStatsResponse['data'][number];

export interface WhatsAppStatsRpc {
  [WhatsAppStatsSubjects.Summary]: Rpc<WhatsAppStatsSummaryRequest, WhatsAppStatsSummary>;
  [WhatsAppStatsSubjects.Series]: Rpc<WhatsAppStatsSeriesRequest, WhatsAppStatsResponse>;
  [WhatsAppStatsSubjects.Breakdown]: Rpc<
    WhatsAppStatsBreakdownRequest,
    StatsBreakdownReply<unknown>
  >;
  [WhatsAppStatsSubjects.InboundSummary]: Rpc<
    WhatsAppInboundSummaryRequest,
    WhatsAppInboundStatsSummaryResponse
  >;
  [WhatsAppStatsSubjects.InboundSeries]: Rpc<
    WhatsAppInboundSeriesRequest,
    WhatsAppInboundStatsResponse
  >;
  [WhatsAppStatsSubjects.InboundPhoneNumbers]: Rpc<
    WhatsAppInboundPhoneNumbersRequest,
    StatsBreakdownReply<{ phone_number: string; received: number }>
  >;
}
