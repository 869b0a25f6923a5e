/**
 * An event as a service writes it to its outbox and as the bus carries it. `id` is stable (the
 * same event keeps it through every redelivery), so consumers dedupe by it; the body delivered
 * to the outside (webhooks) is `{ type, timestamp, data }`.
 */
export interface OutboxEvent<D = unknown> {
  id: string;
  /** `<aggregate>.<past-tense>` as the SDK names it, e.g. `email.delivered`, `domain.verified`. */
  type: string;
  workspaceId: string;
  /** ISO 8601, when the change happened. */
  timestamp: string;
  data: D;
}

/**
 * Where the outbox relay hands committed events. `publish` resolves once the bus has taken
 * every event of the batch (and rejects otherwise: the relay publishes the whole batch again,
 * so delivery is at least once and consumers dedupe by `id`). Two implementations: the
 * in-process bus of the embedded default (`InProcessEventBus`) and NATS JetStream in the
 * distributed topology (`JetStreamEventBus`, beside it in libs/persistence).
 */
export interface EventPublisher {
  publish(events: readonly OutboxEvent[]): Promise<void>;
}

/**
 * Handles a batch of events, in the order they were written. Rejecting means "not taken": the
 * batch is delivered again later (the in-process bus fails the publish, so the relay retries;
 * the JetStream consumer naks). Handlers take events in batches so they can store them with
 * set-based SQL; they must be idempotent (dedupe by id) and put lasting work in their own tables.
 */
export type EventHandler = (events: OutboxEvent[]) => Promise<void> | void;

/**
 * The consumer side: events whose type starts with `typePrefix` (`'email.'`, or `''` for all).
 * `consumer` names the subscriber: the durable JetStream consumer that keeps its place while
 * it is down (ignored by the in-process bus, where nothing outlives the process).
 */
export interface EventSubscriber {
  subscribe(typePrefix: string, handler: EventHandler, consumer?: string): () => void;
}
