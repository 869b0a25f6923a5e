import { Counter, Gauge, Registry } from 'prom-client';
import {
  addMetricsSource,
  countLater,
  httpRequests,
  metricsRegistry,
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
