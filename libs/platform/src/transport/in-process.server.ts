import { Server } from '@nestjs/microservices';
import type { CustomTransportStrategy, MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { InProcessBus } from './in-process.bus';
import { InProcessContext } from './in-process.context';

/** Serves a service's @MessagePattern handlers on the process-wide bus. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly subjects: string[] = [];

  constructor(private readonly bus: InProcessBus) {
    super();
  }

  listen(callback: () => void): void {
    for (const [subject, handler] of this.messageHandlers) {
      this.bus.register(subject, (data, headers) => dispatch(subject, handler, data, headers));
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
