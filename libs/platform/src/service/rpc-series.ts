import { countLater, observeLater, rpcDuration, rpcRequests } from '../observability/metrics';

/** The metrics of one service's subject: its duration histogram and its two outcome counters. */
export interface RpcSeries {
  /** Observes seconds. */
  duration: { observe(seconds: number): void };
  ok: { inc(): void };
  error: { inc(): void };
}

/** prom-client hashes a label set on every call: the children of each service and subject are kept. */
const seriesBySubject = new Map<string, RpcSeries>();

/**
 * The series the transport servers (in-process and NATS) count and time each handled request in,
 * by service, subject and outcome; they record them themselves, which spares each request Nest's
 * interceptor chain.
 */
export function rpcSeries(service: string, subject: string): RpcSeries {
  const key = `${service}\u0000${subject}`;
  const known = seriesBySubject.get(key);
  if (known) return known;
  const series: RpcSeries = {
    duration: observeLater(rpcDuration, { service, subject }),
    ok: countLater(rpcRequests, { service, subject, outcome: 'ok' }),
    error: countLater(rpcRequests, { service, subject, outcome: 'error' }),
  };
  seriesBySubject.set(key, series);
  return series;
}
