import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  addMetricsSource,
  countLater,
  httpDuration,
  httpRequests,
  metricsRegistry,
  observeLater,
  renderMetrics,
} from './metrics';

describe('renderMetrics', () => {
  it('adds a source’s counters to this registry’s and keeps this registry’s gauges', async () => {
    const counter = new Counter({
      name: 'spec_jobs_total',
      help: 'h',
      registers: [metricsRegistry],
    });
    const gauge = new Gauge({ name: 'spec_share', help: 'h', registers: [metricsRegistry] });
    counter.inc(2);
    gauge.set(0.5);
    // Another thread's registry, as it crosses over: the same metrics with their own values.
    const other = new Registry();
    new Counter({ name: 'spec_jobs_total', help: 'h', registers: [other] }).inc(3);
    new Gauge({ name: 'spec_share', help: 'h', registers: [other] }).set(0.5);
    new Counter({ name: 'spec_only_there_total', help: 'h', registers: [other] }).inc();
    const remove = addMetricsSource(() => other.getMetricsAsJSON());
    try {
      const { body } = await renderMetrics();
      expect(body).toMatch(/^spec_jobs_total 5$/m);
      expect(body).toMatch(/^spec_share 0\.5$/m);
      expect(body).toMatch(/^spec_only_there_total 1$/m);
    } finally {
      remove();
      metricsRegistry.removeSingleMetric('spec_jobs_total');
      metricsRegistry.removeSingleMetric('spec_share');
    }
    expect((await renderMetrics()).body).not.toContain('spec_only_there_total');
  });
});

describe('countLater', () => {
  it('adds its counts to the counter whenever the counter is read, each once', async () => {
    const labels = { method: 'GET', route: '/count-later-spec', status: '200' };
    const series = countLater(httpRequests, labels);
    const value = async () =>
      (await httpRequests.get()).values.find((v) => v.labels.route === labels.route)?.value;
    series.inc();
    series.inc();
    expect(await value()).toBe(2);
    expect(await value()).toBe(2);
    series.inc();
    httpRequests.inc(labels);
    expect(await value()).toBe(4);
    expect((await renderMetrics()).body).toMatch(
      /switchboard_http_requests_total\{method="GET",route="\/count-later-spec",status="200"\} 4/,
    );
  });
});

describe('observeLater', () => {
  it("reads exactly as prom-client's own observe, each observation once", async () => {
    const labels = { method: 'POST', route: '/observe-later-spec', status: '201' };
    const twin = new Histogram({
      name: 'spec_twin_duration_seconds',
      help: 'h',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [],
    });
    const series = observeLater(httpDuration, labels);
    const text = async (histogram: Histogram<string>) =>
      (await histogram.get()).values
        .filter((v) => v.labels.route === labels.route)
        .map((v) => `${v.metricName ?? ''} ${v.labels.le ?? ''} ${v.value}`);
    const values = [0, 0.0004, 0.001, 0.003, 0.02, 0.3, 4, 5, 7, 0.001];
    for (const value of values.slice(0, 6)) {
      series.observe(value);
      twin.observe(labels, value);
    }
    expect(await text(httpDuration)).toEqual(
      (await text(twin)).map((line) => line.replace('spec_twin', 'switchboard_http_request')),
    );
    for (const value of values.slice(6)) {
      series.observe(value);
      twin.observe(labels, value);
    }
    const [read, again] = [await text(httpDuration), await text(httpDuration)];
    expect(again).toEqual(read);
    expect(read).toEqual(
      (await text(twin)).map((line) => line.replace('spec_twin', 'switchboard_http_request')),
    );
    expect(() => series.observe(Number.NaN)).toThrow(TypeError);
  });
});
