import { Counter, Gauge, Registry } from 'prom-client';
import { addMetricsSource, metricsRegistry, renderMetrics } from './metrics';

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
