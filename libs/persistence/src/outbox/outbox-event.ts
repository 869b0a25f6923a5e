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
 * so delivery is at least once and consumers dedupe by `id`).
 *
 * Two implementations are meant to fit: the in-process bus of the embedded default
 * (`InProcessEventBus`, here) and, for the distributed topology, NATS JetStream, which arrives
 * with the webhooks issue (issue 8): each event published to a stream subject derived from its
 * type with `msgID` = `id` (the stream drops duplicates within its window), the batch resolved
 * when every ack is in. Not built yet: nothing consumes events across processes before then.
 */
export interface EventPublisher {
  publish(events: readonly OutboxEvent[]): Promise<void>;
}

/**
 * Handles one event. Rejecting means "not taken": the event is delivered again later (the
 * in-process bus fails the publish, so the relay retries; a JetStream consumer would nak).
 * Handlers should be quick and idempotent and put lasting work in their own tables.
 */
export type EventHandler = (event: OutboxEvent) => Promise<void> | void;

/**
 * The consumer side: events whose type starts with `typePrefix` (`'email.'`, or `''` for all).
 * A JetStream subscriber would map the prefix to a durable consumer's filter subject.
 */
export interface EventSubscriber {
  subscribe(typePrefix: string, handler: EventHandler): () => void;
}
