// Work that outlives a request: the work queue, the outbox and its relay, and the wake-ups that
// tell workers and relays a transaction committed something for them.
export * from './work-queue';
export * from './outbox';
export { Wakeups, wakeupsOf, wakeQueue, wakeRelay } from './notify/wakeups';
