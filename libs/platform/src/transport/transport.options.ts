import { Transport } from '@nestjs/microservices';
import type { NatsOptions } from '@nestjs/microservices';
import type { InProcessBus } from './in-process.bus';

/** How a process reaches the other services: the in-process bus or a NATS server. */
export type TransportSettings =
  | { kind: 'in-process'; bus: InProcessBus; timeoutMs: number }
  | { kind: 'nats'; url: string; timeoutMs: number };

/** Server options for a service on NATS: one queue group per service so replicas share requests. */
export function natsServerOptions(url: string, service: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      servers: url.split(','),
      queue: service,
      name: `switchboard-${service}`,
      waitOnFirstConnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    },
  };
}

export function natsClientOptions(url: string, name: string): NonNullable<NatsOptions['options']> {
  return {
    servers: url.split(','),
    name: `switchboard-${name}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  };
}
