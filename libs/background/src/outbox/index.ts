export { outboxTable, outboxChannel } from './outbox.table';
export { writeOutboxEvents } from './write-outbox-events';
export { OutboxRelay } from './outbox-relay';
export type { OutboxRelayOptions } from './outbox-relay';
