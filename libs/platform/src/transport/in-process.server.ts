import { Server } from '@nestjs/microservices';
import type { CustomTransportStrategy, MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { foregroundPriority } from '../concurrency/foreground-priority';
import { rpcSeries } from '../service/rpc-observability.interceptor';
import type { RpcSeries } from '../service/rpc-observability.interceptor';
import type { InProcessBus } from './in-process.bus';
import { InProcessContext } from './in-process.context';

/**
 * Serves a service's @MessagePattern handlers on the process-wide bus. Given the service's name,
 * it also counts and times each request (the metrics RpcObservabilityInterceptor records) and
 * notes it to `foregroundPriority`, so the service needs no interceptor in the embedded default.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly subjects: string[] = [];

  constructor(
    private readonly bus: InProcessBus,
    private readonly service?: string,
  ) {
    super();
  }

  listen(callback: () => void): void {
    for (const [subject, handler] of this.messageHandlers) {
      const series = this.service === undefined ? undefined : rpcSeries(this.service, subject);
      this.bus.register(
        subject,
        series
          ? (data, headers) => observed(series, () => dispatch(subject, handler, data, headers))
          : (data, headers) => dispatch(subject, handler, data, headers),
      );
      this.subjects.push(subject);
    }
    callback();
  }

  close(): void {
    for (const subject of this.subjects.splice(0)) this.bus.unregister(subject);
  }

  on(): void {
    // The bus has no connection events to subscribe to.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }
}

/**
 * Runs Nest's handler (guards, pipes, interceptors, filters and the method) and resolves to its
 * reply: the last value when it answers with an observable (undefined when it emits none), else
 * the value itself, without wrapping a plain reply in an observable to unwrap it again.
 */
async function dispatch(
  subject: string,
  handler: MessageHandler,
  data: unknown,
  headers: Record<string, string>,
): Promise<unknown> {
  const result: unknown = await handler(data, new InProcessContext([subject, headers]));
  return isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : result;
}

/** Times and counts one request, as the interceptor would have. */
function observed(series: RpcSeries, run: () => Promise<unknown>): Promise<unknown> {
  foregroundPriority.noteRequest();
  const stop = series.duration.startTimer();
  return run().then(
    (value) => {
      stop();
      series.ok.inc();
      return value;
    },
    (err: unknown) => {
      stop();
      series.error.inc();
      throw err;
    },
  );
}
