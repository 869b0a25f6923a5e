import { Server } from '@nestjs/microservices';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import { rpcSeries } from '../service/rpc-series';
import type { InProcessBus } from './in-process.bus';
import { InProcessContext } from './in-process.context';
import { dispatch, observed } from './rpc-dispatch';

/**
 * Serves a service's @MessagePattern handlers on the process-wide bus. Given the service's name,
 * it also counts and times each request (its subject's `rpcSeries`) and notes it to
 * `foregroundPriority`, as NatsServer does in distributed mode.
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
      const run = (data: unknown, headers: Record<string, string>) =>
        dispatch(handler, data, new InProcessContext([subject, headers]));
      this.bus.register(
        subject,
        series ? (data, headers) => observed(series, () => run(data, headers)) : run,
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
