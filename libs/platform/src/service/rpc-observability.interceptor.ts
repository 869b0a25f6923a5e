import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { BaseRpcContext } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { rpcDuration, rpcRequests } from '../observability/metrics';
import { subjectOf } from './rpc-context';

/** Counts and times every handled request, by service, subject and outcome. */
export class RpcObservabilityInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const rpc = context.switchToRpc().getContext<BaseRpcContext>();
    const subject = subjectOf(rpc);
    const stop = rpcDuration.startTimer({ service: this.service, subject });
    return new Observable((subscriber) =>
      next.handle().subscribe({
        next: (value) => subscriber.next(value),
        error: (err: unknown) => {
          stop();
          rpcRequests.inc({ service: this.service, subject, outcome: 'error' });
          subscriber.error(err);
        },
        complete: () => {
          stop();
          rpcRequests.inc({ service: this.service, subject, outcome: 'ok' });
          subscriber.complete();
        },
      }),
    );
  }
}
