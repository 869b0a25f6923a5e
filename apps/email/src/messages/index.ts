export { MessagesModule } from './messages.module';
export { ContentsRepository } from './contents.repository';
export { EmailEventsRepository } from './email-events.repository';
export { recipientEvent } from './email-events';
export type { EmailEventRecord } from './email-events';
export { MESSAGE_COLUMNS, RECIPIENT_COLUMNS } from './message.mapper';
export type { MessageRow, RecipientRow } from './message.mapper';
export { aggregateStatus } from './message-status';
export { PROCESS_QUEUE } from './accept/accept.repository';
