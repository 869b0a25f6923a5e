export { SmsMessagesModule } from './messages.module';
export { AcceptRepository, SUBMIT_QUEUE } from './accept/accept.repository';
export { countryOf, draftInbound, draftOutbound, optOutError } from './accept/sms-draft';
export type { OutboundSms, SmsDraft } from './accept/sms-draft';
export { smsEvent, smsSubjectOf } from './sms-events';
export { eventInserts, eventRows } from './sms-events.repository';
export type { SmsEventRecord, SmsEventSubject } from './sms-events';
export { SmsRetention } from './sms-retention';
export { SmsRetentionRepository } from './sms-retention.repository';
