// What the other WhatsApp areas (webhooks, inbound, reactions) use of messages: the read
// mapping, the events and their SQL, the statuses Meta reports, Meta's error codes.
export * from './message.mapper';
export * from './whatsapp-events';
export * from './meta-errors';
export { WhatsAppStatusesRepository } from './message-statuses.repository';
export type { StatusUpdate } from './message-statuses.repository';
export { WhatsAppMessagesModule } from './whatsapp-messages.module';
