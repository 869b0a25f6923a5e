import {
  bucketsOf,
  latencyQuantiles,
  pctChange,
  rate,
  rateDelta,
  sketchFromStored,
} from '@switchboard/contracts';
import type {
  SmsDeliveryCounts,
  SmsDeliveryStats,
  SmsLatencyStats,
  SmsStatsComparisonDelta,
  SmsStatsPoint,
  StatsWindow,
} from '@switchboard/contracts';
import { SMS_COUNTS } from './sms-stats.repository';
import type { SmsCounts, SmsSketches } from './sms-stats.repository';

export const ZERO_COUNTS: SmsCounts = Object.fromEntries(
  SMS_COUNTS.map((name) => [name, 0]),
) as SmsCounts;

export function countsOf(row: Partial<SmsCounts> | undefined): SmsDeliveryCounts {
  return Object.fromEntries(
    SMS_COUNTS.map((name) => [name, Number(row?.[name] ?? 0)]),
  ) as SmsCounts;
}

/** Counts with the SDK's rates: delivered / accepted, (undelivered + failed + expired) / accepted. */
export function deliveryOf(row: Partial<SmsCounts> | undefined): SmsDeliveryStats {
  const counts = countsOf(row);
  return {
    ...counts,
    delivery_rate: rate(counts.delivered, counts.accepted),
    failure_rate: rate(counts.undelivered + counts.failed + counts.expired, counts.accepted),
  };
}

/** The families with a measurement; an empty family is omitted. */
export function latencyOf(row: Partial<SmsSketches> | undefined): SmsLatencyStats {
  const latency: { -readonly [K in keyof SmsLatencyStats]: SmsLatencyStats[K] } = {};
  const processing = latencyQuantiles(sketchFromStored(row?.processing_ms));
  const delivery = latencyQuantiles(sketchFromStored(row?.delivery_ms));
  const total = latencyQuantiles(sketchFromStored(row?.total_ms));
  if (processing) latency.processing = processing;
  if (delivery) latency.delivery = delivery;
  if (total) latency.total = total;
  return latency;
}

export function deltaOf(
  current: SmsDeliveryStats,
  previous: SmsDeliveryStats,
): SmsStatsComparisonDelta {
  return {
    accepted_pct_change: pctChange(current.accepted, previous.accepted),
    sent_pct_change: pctChange(current.sent, previous.sent),
    delivered_pct_change: pctChange(current.delivered, previous.delivered),
    undelivered_pct_change: pctChange(current.undelivered, previous.undelivered),
    failed_pct_change: pctChange(current.failed, previous.failed),
    rejected_pct_change: pctChange(current.rejected, previous.rejected),
    expired_pct_change: pctChange(current.expired, previous.expired),
    delivery_rate_pp: rateDelta(current.delivery_rate, previous.delivery_rate),
    failure_rate_pp: rateDelta(current.failure_rate, previous.failure_rate),
  };
}

/** Every bucket of the window in order, zero-filled where nothing happened. */
export function zeroFilled(
  window: StatsWindow,
  rows: ReadonlyArray<SmsCounts & { label: string }>,
): SmsStatsPoint[] {
  const byLabel = new Map(rows.map((row) => [row.label, row]));
  return bucketsOf(window).map((bucket) => ({ bucket, delivery: countsOf(byLabel.get(bucket)) }));
}

export function periodOf(window: StatsWindow, dataAsOf: string | null) {
  return { from: window.from, to: window.to, data_as_of: dataAsOf };
}
