import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { BaseRpcContext } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { foregroundPriority } from '../concurrency/foreground-priority';
import { rpcDuration, rpcRequests } from '../observability/metrics';
import { subjectOf } from './rpc-context';

/** The metrics of one service's subject: its duration histogram and its two outcome counters. */
export interface RpcSeries {
  duration: { startTimer(): () => void };
  ok: { inc(): void };
  error: { inc(): void };
}

/** prom-client hashes a label set on every call: the children of each service and subject are kept. */
const seriesBySubject = new Map<string, RpcSeries>();

export function rpcSeries(service: string, subject: string): RpcSeries {
  const key = `${service}\u0000${subject}`;
  const known = seriesBySubject.get(key);
  if (known) return known;
  const series: RpcSeries = {
    duration: rpcDuration.labels({ service, subject }),
    ok: rpcRequests.labels({ service, subject, outcome: 'ok' }),
    error: rpcRequests.labels({ service, subject, outcome: 'error' }),
  };
  seriesBySubject.set(key, series);
  return series;
}

/**
 * Counts and times every handled request, by service, subject and outcome, and notes it to
 * `foregroundPriority` (background workers yield to requests). The in-process
 * server records the same metrics itself when it is given the service's name (see
 * InProcessServer), which spares each request Nest's interceptor chain.
 */
export class RpcObservabilityInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const subject = subjectOf(context.switchToRpc().getContext<BaseRpcContext>());
    const series = rpcSeries(this.service, subject);
    foregroundPriority.noteRequest();
    const stop = series.duration.startTimer();
    return new Observable((subscriber) =>
      next.handle().subscribe({
        next: (value) => subscriber.next(value),
        error: (err: unknown) => {
          stop();
          series.error.inc();
          subscriber.error(err);
        },
        complete: () => {
          stop();
          series.ok.inc();
          subscriber.complete();
        },
      }),
    );
  }
}
