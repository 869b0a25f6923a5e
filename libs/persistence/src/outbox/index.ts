export { outboxTable, outboxChannel } from './outbox.table';
export { writeOutboxEvents } from './write-outbox-events';
export type { EventHandler, EventPublisher, EventSubscriber, OutboxEvent } from './outbox-event';
export { OutboxRelay } from './outbox-relay';
export type { OutboxRelayOptions } from './outbox-relay';
export { InProcessEventBus, processEventBus } from './in-process-event-bus';
