// What the other WhatsApp areas (webhooks, inbound, reactions) use of messages: the read
// mapping, the events and their SQL, the statuses Meta reports, Meta's error codes.
export * from './message.mapper';
export * from './whatsapp-events';
export * from './meta-errors';
export { WhatsAppStatusesRepository } from './message-statuses.repository';
export type { StatusUpdate } from './message-statuses.repository';
export { WhatsAppMessagesModule } from './whatsapp-messages.module';
export { LATE_STATUSES_QUEUE, MetaStatusApplier, statusUpdatesOf } from './meta-status.applier';
export type { LateStatusesPayload } from './meta-status.applier';
export { DISPATCH_QUEUE } from './accept/accept.repository';
export { isTransactional, suppressedError } from './accept/whatsapp-draft';
export type { DispatchPayload } from './accept/whatsapp-draft';
export { WhatsAppMessagesRequestModule } from './whatsapp-messages-request.module';
