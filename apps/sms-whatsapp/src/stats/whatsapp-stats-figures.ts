import {
  latencyQuantiles,
  pctChange,
  rate,
  rateDelta,
  sketchFromStored,
} from '@switchboard/contracts';
import type {
  WhatsAppDeliveryStats,
  WhatsAppEngagementStats,
  WhatsAppLatencyStats,
  WhatsAppStatsComparisonDelta,
} from '@switchboard/contracts';
import type { Sketches } from '@switchboard/persistence';
import type { WhatsappCounts } from './whatsapp-stats.repository';

const num = (value: number | undefined) => Number(value ?? 0);

/** Counts with the SDK's rates: delivered / accepted, failed / accepted. */
export function whatsappDeliveryOf(
  row: Partial<WhatsappCounts> | undefined,
): WhatsAppDeliveryStats {
  const [accepted, delivered, failed] = [num(row?.accepted), num(row?.delivered), num(row?.failed)];
  return {
    accepted,
    sent: num(row?.sent),
    delivered,
    failed,
    rejected: num(row?.rejected),
    delivery_rate: rate(delivered, accepted),
    failure_rate: rate(failed, accepted),
  };
}

/** Reads, and the read rate over delivered in the same scope. */
export function engagementOf(row: Partial<WhatsappCounts> | undefined): WhatsAppEngagementStats {
  return { read: num(row?.read), read_rate: rate(num(row?.read), num(row?.delivered)) };
}

export function whatsappLatencyOf(row: Partial<Sketches> | undefined): WhatsAppLatencyStats {
  const latency: { -readonly [K in keyof WhatsAppLatencyStats]: WhatsAppLatencyStats[K] } = {};
  const processing = latencyQuantiles(sketchFromStored(row?.processing_ms));
  const delivery = latencyQuantiles(sketchFromStored(row?.delivery_ms));
  const total = latencyQuantiles(sketchFromStored(row?.total_ms));
  if (processing) latency.processing = processing;
  if (delivery) latency.delivery = delivery;
  if (total) latency.total = total;
  return latency;
}

/** The figures every WhatsApp row carries: delivery, engagement and latency. */
export function whatsappFiguresOf(row: (Partial<WhatsappCounts> & Partial<Sketches>) | undefined) {
  return {
    delivery: whatsappDeliveryOf(row),
    engagement: engagementOf(row),
    latency: whatsappLatencyOf(row),
  };
}

export function whatsappDeltaOf(
  current: { delivery: WhatsAppDeliveryStats; engagement: WhatsAppEngagementStats },
  previous: { delivery: WhatsAppDeliveryStats; engagement: WhatsAppEngagementStats },
): WhatsAppStatsComparisonDelta {
  const [now, before] = [current.delivery, previous.delivery];
  return {
    accepted_pct_change: pctChange(now.accepted, before.accepted),
    sent_pct_change: pctChange(now.sent, before.sent),
    delivered_pct_change: pctChange(now.delivered, before.delivered),
    failed_pct_change: pctChange(now.failed, before.failed),
    rejected_pct_change: pctChange(now.rejected, before.rejected),
    read_pct_change: pctChange(current.engagement.read, previous.engagement.read),
    delivery_rate_pp: rateDelta(now.delivery_rate, before.delivery_rate),
    failure_rate_pp: rateDelta(now.failure_rate, before.failure_rate),
    read_rate_pp: rateDelta(current.engagement.read_rate, previous.engagement.read_rate),
  };
}
