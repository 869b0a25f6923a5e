import type { NodeConnectionOptions } from '@nats-io/transport-node';
import type { InProcessBus } from './in-process.bus';

/** How a process reaches the other services: the in-process bus or a NATS server. */
export type TransportSettings =
  | { kind: 'in-process'; bus: InProcessBus; timeoutMs: number }
  | { kind: 'nats'; url: string; timeoutMs: number };

/**
 * Connection options of a process on NATS: reconnects forever, a second apart. A service waits for
 * its first connection (it has nothing to serve without one); a client fails its requests instead
 * and connects again on the next. `noAsyncTraces`: the client would otherwise capture a stack
 * trace for every request, in case it fails.
 */
export function natsConnectionOptions(
  url: string,
  name: string,
  role: 'service' | 'client',
): NodeConnectionOptions {
  return {
    servers: url.split(','),
    name: `switchboard-${name}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    waitOnFirstConnect: role === 'service',
    noAsyncTraces: true,
  };
}
