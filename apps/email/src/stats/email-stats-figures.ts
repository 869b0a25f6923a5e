import {
  bucketsOf,
  latencyQuantiles,
  pctChange,
  rate,
  rateDelta,
  sketchFromStored,
} from '@switchboard/contracts';
import type {
  EmailDeliveryStats,
  EmailEngagementStats,
  EmailLatencyStats,
  EmailStatsComparisonDelta,
  EmailStatsPoint,
  EmailStatsSeriesPoint,
  StatsWindow,
} from '@switchboard/contracts';
import type { Sketches } from '@switchboard/persistence';
import { EMAIL_STATS_COUNTS } from './email-stats-counts';
import type { EmailStatsCounts } from './email-stats-counts';

export function countsOf(row: Partial<EmailStatsCounts> | undefined): EmailStatsCounts {
  return Object.fromEntries(
    EMAIL_STATS_COUNTS.map((name) => [name, Number(row?.[name] ?? 0)]),
  ) as EmailStatsCounts;
}

const BOUNCE_TYPES = ['hard', 'soft', 'admin', 'block', 'undetermined'] as const;

/**
 * The SDK's delivery block: attempts are `delivered + bounced`, out-of-band bounces come off
 * the delivered (clamped at 0) and onto the bounces; `accepted` only where `withAccepted`
 * (time buckets and the summary; breakdown rows leave it out).
 */
export function deliveryOf(counts: EmailStatsCounts, withAccepted: boolean): EmailDeliveryStats {
  const attempts = counts.delivered + counts.bounced;
  const effective = Math.max(0, counts.delivered - counts.oob_bounces);
  const all = counts.bounced + counts.oob_bounces;
  const bounces = Object.fromEntries(
    BOUNCE_TYPES.flatMap((type) => [
      [type, counts[type]],
      [`${type}_rate`, rate(counts[type], counts.bounced)],
    ]),
  ) as EmailDeliveryStats['bounces'];
  const bounceRate = rate(all, attempts);
  return {
    ...(withAccepted ? { accepted: counts.accepted } : {}),
    processed: counts.processed,
    delivered: counts.delivered,
    bounced: counts.bounced,
    bounces,
    complained: counts.complained,
    deferred: counts.deferred,
    rejected: counts.rejected,
    oob_bounces: counts.oob_bounces,
    effective_delivered: effective,
    all_bounces: all,
    oob_rate: rate(counts.oob_bounces, attempts),
    delivery_rate: rate(effective, attempts),
    bounce_rate: bounceRate === null ? null : Math.min(1, bounceRate),
    complaint_rate: rate(counts.complained, effective),
  };
}

/** The SDK's engagement block; rates over `base` (effective delivered, or delivered). */
export function engagementOf(counts: EmailStatsCounts, base: number): EmailEngagementStats {
  return {
    ...engagementCountsOf(counts),
    unsubscribes: counts.unsubscribes,
    open_rate: rate(counts.unique_opens_non_prefetched, base),
    click_rate: rate(counts.unique_clicks, base),
    unsubscribe_rate: rate(counts.unsubscribes, base),
  };
}

/** The SDK's engagement counts (locations and clients): the counts without their rates. */
export function engagementCountsOf(counts: EmailStatsCounts) {
  return {
    opens: counts.opens,
    opens_non_prefetched: counts.opens_non_prefetched,
    unique_opens: counts.unique_opens,
    unique_opens_non_prefetched: counts.unique_opens_non_prefetched,
    clicks: counts.clicks,
    unique_clicks: counts.unique_clicks,
  };
}

/** The families with a measurement; an empty family is omitted. */
export function latencyOf(row: Partial<Sketches> | undefined): EmailLatencyStats {
  const latency: { -readonly [K in keyof EmailLatencyStats]: EmailLatencyStats[K] } = {};
  const processing = latencyQuantiles(sketchFromStored(row?.processing_ms));
  const delivery = latencyQuantiles(sketchFromStored(row?.delivery_ms));
  const total = latencyQuantiles(sketchFromStored(row?.total_ms));
  if (processing) latency.processing = processing;
  if (delivery) latency.delivery = delivery;
  if (total) latency.total = total;
  return latency;
}

/** A bucket's, a summary's or a row's figures: delivery, engagement and latency. */
export function figuresOf(
  row: (Partial<EmailStatsCounts> & Partial<Sketches>) | undefined,
  withAccepted: boolean,
) {
  const counts = countsOf(row);
  const delivery = deliveryOf(counts, withAccepted);
  return {
    delivery,
    engagement: engagementOf(counts, delivery.effective_delivered),
    latency: latencyOf(row),
  };
}

const NO_QUANTILES = { p50_ms: null, p95_ms: null, p99_ms: null };

/**
 * A mailbox-provider row's delivery and latency blocks (the SDK's): from the delivery stage on,
 * so without acceptance, processing, rejection or the processing latency; `delivery` and
 * `total` latencies always present, their quantiles null when nothing was delivered.
 */
export function providerFiguresOf(figures: ReturnType<typeof figuresOf>) {
  const { delivery, latency } = figures;
  return {
    delivery: {
      delivered: delivery.delivered,
      bounced: delivery.bounced,
      complained: delivery.complained,
      deferred: delivery.deferred,
      bounces: delivery.bounces,
      // The SDK's definitions for these rows, over their own counts (no late bounces here).
      delivery_rate: rate(delivery.delivered, delivery.delivered + delivery.bounced),
      bounce_rate: rate(delivery.bounced, delivery.delivered + delivery.bounced),
      complaint_rate: rate(delivery.complained, delivery.delivered),
    },
    latency: {
      delivery: latency.delivery ?? NO_QUANTILES,
      total: latency.total ?? NO_QUANTILES,
    },
  };
}

/** Whether a mailbox-provider row has anything from the delivery stage on to show. */
export function reachedProvider(counts: EmailStatsCounts): boolean {
  const { delivered, bounced, complained, deferred, oob_bounces, opens, clicks } = counts;
  return [delivered, bounced, complained, deferred, oob_bounces, opens, clicks].some((n) => n > 0);
}

type Figures = ReturnType<typeof figuresOf> & { sends_accepted: number };

export function deltaOf(current: Figures, previous: Figures): EmailStatsComparisonDelta {
  const [now, before] = [current.delivery, previous.delivery];
  const [seen, seenBefore] = [current.engagement, previous.engagement];
  return {
    sends_accepted_pct_change: pctChange(current.sends_accepted, previous.sends_accepted),
    delivered_pct_change: pctChange(now.effective_delivered, before.effective_delivered),
    bounced_pct_change: pctChange(now.all_bounces, before.all_bounces),
    complained_pct_change: pctChange(now.complained, before.complained),
    opened_pct_change: pctChange(
      seen.unique_opens_non_prefetched,
      seenBefore.unique_opens_non_prefetched,
    ),
    delivery_rate_pp: rateDelta(now.delivery_rate, before.delivery_rate),
    open_rate_pp: rateDelta(seen.open_rate, seenBefore.open_rate),
    click_rate_pp: rateDelta(seen.click_rate, seenBefore.click_rate),
    bounce_rate_pp: rateDelta(now.bounce_rate, before.bounce_rate),
    complaint_rate_pp: rateDelta(now.complaint_rate, before.complaint_rate),
    unsubscribe_rate_pp: rateDelta(seen.unsubscribe_rate, seenBefore.unsubscribe_rate),
  };
}

/** Every bucket of the window in order, zero-filled where nothing happened. */
export function zeroFilled(
  window: StatsWindow,
  rows: ReadonlyArray<Partial<EmailStatsCounts> & Partial<Sketches> & { label: string }>,
): EmailStatsPoint[] {
  const byLabel = new Map(rows.map((row) => [row.label, row]));
  return bucketsOf(window).map((bucket) => {
    const row = byLabel.get(bucket);
    return { bucket, sends_accepted: Number(row?.sends_accepted ?? 0), ...figuresOf(row, true) };
  });
}

/** A trend point: the headline counts and rates of one bucket of a breakdown row. */
export function trendPointOf(
  bucket: string,
  row: Partial<EmailStatsCounts>,
): EmailStatsSeriesPoint {
  const { delivery, engagement } = figuresOf(row, false);
  return {
    bucket,
    delivered: delivery.delivered,
    bounced: delivery.bounced,
    delivery_rate: delivery.delivery_rate,
    bounce_rate: delivery.bounce_rate,
    complaint_rate: delivery.complaint_rate,
    open_rate: engagement.open_rate,
    click_rate: engagement.click_rate,
  };
}

export function periodOf(window: StatsWindow, dataAsOf: string | null) {
  return { from: window.from, to: window.to, data_as_of: dataAsOf };
}
