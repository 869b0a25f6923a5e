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
  /** Settled when publishes may go through; pending while the bus is held. */
  private gate: Promise<void> = Promise.resolve();
  private open?: () => void;
  private closed = false;

  /**
   * Holds every publish until `release`. The background thread holds its bus while its services
   * start: services both publish and consume (email and sms-whatsapp follow the preference
   * ledger, the ledger takes the SMS keywords' statements), so no start order puts every
   * consumer before every relay, and a publish with a consumer missing would lose its events.
   */
  hold(): void {
    if (this.open) return;
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.open = undefined;
  }

  /**
   * Refuses every later publish (the relay keeps its events and retries, in vain, until it
   * stops): the background thread closes its bus before it stops its services, in any order.
   */
  close(): void {
    this.closed = true;
    this.release();
  }

  subscribe(typePrefix: string, handler: EventHandler): () => void {
    const subscription = { prefix: typePrefix, handler };
    this.subscriptions.add(subscription);
    return () => this.subscriptions.delete(subscription);
  }

  async publish(events: readonly OutboxEvent[]): Promise<void> {
    await this.gate;
    if (this.closed) throw new Error('the event bus is closed: the process is stopping');
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
