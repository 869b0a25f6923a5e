import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One Prometheus registry per process; the embedded default shares it between all services. */
export const metricsRegistry = new Registry();
let defaultsCollected = false;

export function enableDefaultMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

export const httpRequests = new Counter({
  name: 'switchboard_http_requests_total',
  help: 'HTTP requests answered, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'switchboard_http_request_duration_seconds',
  help: 'HTTP request latency, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const rpcRequests = new Counter({
  name: 'switchboard_rpc_requests_total',
  help: 'Transport requests handled, by service, subject and outcome',
  labelNames: ['service', 'subject', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rpcDuration = new Histogram({
  name: 'switchboard_rpc_duration_seconds',
  help: 'Transport request handling time, by service and subject',
  labelNames: ['service', 'subject'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
