import type { EventHandler, EventPublisher, EventSubscriber, OutboxEvent } from './outbox-event';

/**
 * The event bus of the embedded default: the outbox relays of the services in this process
 * publish to it and their consumers subscribe to it. `publish` hands each subscriber the batch's
 * events of a matching prefix, in order, and resolves when all have handled them; if one
 * rejects, the publish rejects and the relay delivers the batch again later (subscribers dedupe
 * by id), as a durable consumer would redeliver an unacknowledged message. Each subscriber gets
 * its own copy of the events, as it would over the wire.
 */
export class InProcessEventBus implements EventPublisher, EventSubscriber {
  private readonly subscriptions = new Set<{ prefix: string; handler: EventHandler }>();

  subscribe(typePrefix: string, handler: EventHandler): () => void {
    const subscription = { prefix: typePrefix, handler };
    this.subscriptions.add(subscription);
    return () => this.subscriptions.delete(subscription);
  }

  async publish(events: readonly OutboxEvent[]): Promise<void> {
    for (const { prefix, handler } of [...this.subscriptions]) {
      const matching = events.filter((event) => event.type.startsWith(prefix));
      if (matching.length > 0) await handler(structuredClone(matching));
    }
  }
}

/**
 * The process's bus: every service's relay in the embedded default publishes here, so a
 * consumer in the same process (the webhooks service) subscribes once for all of them.
 */
export const processEventBus = new InProcessEventBus();
