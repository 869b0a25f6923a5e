import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Histogram,
  Registry,
} from 'prom-client';
import type { LabelValues, MetricObjectWithValues, MetricValue } from 'prom-client';

/** One Prometheus registry per process; the embedded default shares it between all services. */
export const metricsRegistry = new Registry();
let defaultsCollected = false;

export function enableDefaultMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** A count kept as a plain number until its counter is read (`countLater`). */
interface PendingCount {
  labels: LabelValues<string>;
  count: number;
}

const pendingCounts = new Map<Counter<string>, PendingCount[]>();

/** Adds what `countLater` counted since the last read; a counter's `collect`, run on every read. */
function addPendingCounts(this: Counter<string>): void {
  for (const pending of pendingCounts.get(this) ?? []) {
    if (pending.count === 0) continue;
    this.inc(pending.labels, pending.count);
    pending.count = 0;
  }
}

/**
 * A series of `counter` whose increments are a plain addition, added to the counter when it is
 * read (a scrape, `getMetricsAsJSON`): prom-client's `inc` validates and hashes the label set on
 * every call, a cost each request would pay. Only for counters made with `collect:
 * addPendingCounts`; call it once per label set and keep the answer.
 */
export function countLater(counter: Counter<string>, labels: LabelValues<string>): { inc(): void } {
  const pending: PendingCount = { labels, count: 0 };
  const list = pendingCounts.get(counter) ?? [];
  list.push(pending);
  pendingCounts.set(counter, list);
  return {
    inc: () => {
      pending.count++;
    },
  };
}

/** Observations of one histogram series kept as plain counts until the histogram is read. */
interface PendingObservations {
  labels: LabelValues<string>;
  /** Per upper bound, the observations at or below it and above the one before. */
  buckets: number[];
  sum: number;
  count: number;
}

/** What prom-client keeps per series of a histogram (15.x): what a read turns into text. */
interface HistogramRecord {
  labels: LabelValues<string>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

interface HistogramInternals {
  hashMap: Record<string, HistogramRecord>;
  upperBounds: number[];
}

const pendingObservations = new Map<Histogram<string>, PendingObservations[]>();

/**
 * Adds what `observeLater` observed since the last read to prom-client's own record of each
 * series (which `zero`, public, creates). prom-client has no public way to add counts in bulk;
 * metrics.spec.ts checks the text against a histogram observed one value at a time.
 */
function addPendingObservations(this: Histogram<string>): void {
  const internals = this as unknown as HistogramInternals;
  for (const pending of pendingObservations.get(this) ?? []) {
    if (pending.count === 0) continue;
    let record = findRecord(internals, pending.labels);
    if (!record) {
      this.zero(pending.labels);
      record = findRecord(internals, pending.labels);
    }
    if (!record) continue;
    const bounds = internals.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      record.bucketValues[bounds[i]] += pending.buckets[i];
      pending.buckets[i] = 0;
    }
    record.sum += pending.sum;
    record.count += pending.count;
    pending.sum = 0;
    pending.count = 0;
  }
}

function findRecord(
  internals: HistogramInternals,
  labels: LabelValues<string>,
): HistogramRecord | undefined {
  const names = Object.keys(labels);
  return Object.values(internals.hashMap).find(
    (record) =>
      Object.keys(record.labels).length === names.length &&
      names.every((name) => record.labels[name] === labels[name]),
  );
}

/**
 * A series of `histogram` whose observations are a bucket scan and three additions, added to the
 * histogram when it is read: prom-client's `observe` validates and hashes the label set and turns
 * the bucket's bound into a property key on every call. Only for histograms made with `collect:
 * addPendingObservations`; call it once per label set and keep the answer.
 */
export function observeLater(
  histogram: Histogram<string>,
  labels: LabelValues<string>,
): { observe(seconds: number): void } {
  const bounds = (histogram as unknown as HistogramInternals).upperBounds;
  const pending: PendingObservations = {
    labels,
    buckets: bounds.map(() => 0),
    sum: 0,
    count: 0,
  };
  const list = pendingObservations.get(histogram) ?? [];
  list.push(pending);
  pendingObservations.set(histogram, list);
  return {
    observe: (seconds) => {
      if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
      for (let i = 0; i < bounds.length; i++) {
        if (seconds <= bounds[i]) {
          pending.buckets[i]++;
          break;
        }
      }
      pending.sum += seconds;
      pending.count++;
    },
  };
}

export const httpRequests = new Counter({
  name: 'switchboard_http_requests_total',
  help: 'HTTP requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
  collect: addPendingCounts,
});

export const httpDuration = new Histogram({
  name: 'switchboard_http_request_duration_seconds',
  help: 'HTTP request latency, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
  collect: addPendingObservations,
});

export const rpcRequests = new Counter({
  name: 'switchboard_rpc_requests_total',
  help: 'Transport requests handled, by service, subject and outcome',
  labelNames: ['service', 'subject', 'outcome'] as const,
  registers: [metricsRegistry],
  collect: addPendingCounts,
});

export const rpcDuration = new Histogram({
  name: 'switchboard_rpc_duration_seconds',
  help: 'Transport request handling time, by service and subject',
  labelNames: ['service', 'subject'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
  collect: addPendingObservations,
});

/** A registry's metrics as `getMetricsAsJSON` gives them (what crosses a thread). */
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

const sources = new Set<() => Promise<MetricsSnapshot>>();

/**
 * Adds metrics recorded outside this registry to the process's page: the embedded default's
 * background thread has a registry of its own (ADR 11). Counters and histograms of one name are
 * summed; a gauge this registry has too is this registry's. Answers the function that removes it.
 */
export function addMetricsSource(source: () => Promise<MetricsSnapshot>): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  if (sources.size === 0)
    return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
  const own = await metricsRegistry.getMetricsAsJSON();
  const ownGauges = new Set(own.filter(isGauge).map((metric) => metric.name));
  const others = await Promise.all(
    [...sources].map((source) => source().catch((): MetricsSnapshot => [])),
  );
  const merged = AggregatorRegistry.aggregate([
    own,
    ...others.map((metrics) =>
      metrics.filter((metric) => !(isGauge(metric) && ownGauges.has(metric.name))),
    ),
  ]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}

/** prom-client's types call `type` an enum; its JSON says `'gauge'`. */
function isGauge(metric: MetricsSnapshot[number]): boolean {
  return (metric.type as unknown) === 'gauge';
}
