export type { EventHandler, EventPublisher, EventSubscriber, OutboxEvent } from './outbox-event';
export { InProcessEventBus, processEventBus } from './in-process-event-bus';
export { closeEventBuses, eventBusFor } from './event-bus';
export type { EventBus } from './event-bus';
export { EVENTS_STREAM, JetStreamEventBus } from './jetstream-event-bus';
export type { JetStreamEventBusOptions } from './jetstream-event-bus';
