import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { BaseRpcContext } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { rpcDuration, rpcRequests } from '../observability/metrics';
import { subjectOf } from './rpc-context';

interface SubjectSeries {
  duration: { startTimer(): () => void };
  ok: { inc(): void };
  error: { inc(): void };
}

/** Counts and times every handled request, by service, subject and outcome. */
export class RpcObservabilityInterceptor implements NestInterceptor {
  /** prom-client hashes a label set on every call: the children of each subject are kept. */
  private readonly series = new Map<string, SubjectSeries>();

  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const series = this.seriesOf(subjectOf(context.switchToRpc().getContext<BaseRpcContext>()));
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

  private seriesOf(subject: string): SubjectSeries {
    const known = this.series.get(subject);
    if (known) return known;
    const { service } = this;
    const series: SubjectSeries = {
      duration: rpcDuration.labels({ service, subject }),
      ok: rpcRequests.labels({ service, subject, outcome: 'ok' }),
      error: rpcRequests.labels({ service, subject, outcome: 'error' }),
    };
    this.series.set(subject, series);
    return series;
  }
}
