import { processEventBus } from './in-process-event-bus';
import type { EventPublisher, EventSubscriber } from './outbox-event';
import { JetStreamEventBus } from './jetstream-event-bus';

export type EventBus = EventPublisher & EventSubscriber;

const jetStreamBuses = new Map<string, JetStreamEventBus>();

/**
 * The event bus a service publishes to and consumes from: the process's in-process bus in the
 * embedded default, NATS JetStream in distributed mode (one connection per NATS_URL per process,
 * made on first use).
 */
export function eventBusFor(config: {
  TRANSPORT: 'in-process' | 'nats';
  NATS_URL: string;
}): EventBus {
  if (config.TRANSPORT !== 'nats') return processEventBus;
  let bus = jetStreamBuses.get(config.NATS_URL);
  if (!bus) jetStreamBuses.set(config.NATS_URL, (bus = new JetStreamEventBus(config.NATS_URL)));
  return bus;
}

/** Closes the JetStream buses this process opened (at shutdown, after the consumers stopped). */
export async function closeEventBuses(): Promise<void> {
  const buses = [...jetStreamBuses.values()];
  jetStreamBuses.clear();
  await Promise.all(buses.map((bus) => bus.close()));
}
