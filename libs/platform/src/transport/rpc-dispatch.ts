import { performance } from 'node:perf_hooks';
import type { BaseRpcContext, MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { foregroundPriority } from '../concurrency/foreground-priority';
import type { RpcSeries } from '../service/rpc-series';

/**
 * Runs Nest's handler (guards, pipes, interceptors, filters and the method) and resolves to its
 * reply: the last value when it answers with an observable (undefined when it emits none), else
 * the value itself, without wrapping a plain reply in an observable to unwrap it again. Shared by
 * the in-process and the NATS servers.
 */
export async function dispatch(
  handler: MessageHandler,
  data: unknown,
  context: BaseRpcContext,
): Promise<unknown> {
  const result: unknown = await handler(data, context);
  return isObservable(result) ? lastValueFrom(result, { defaultValue: undefined }) : result;
}

/**
 * Times and counts one request in its subject's series, and notes it to `foregroundPriority`
 * (background workers yield to requests).
 */
export function observed(series: RpcSeries, run: () => Promise<unknown>): Promise<unknown> {
  foregroundPriority.noteRequest();
  // performance.now: prom-client's startTimer allocates a closure, an hrtime pair and a label
  // object per request, and validates the labels again.
  const started = performance.now();
  const stop = () => series.duration.observe((performance.now() - started) / 1000);
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
