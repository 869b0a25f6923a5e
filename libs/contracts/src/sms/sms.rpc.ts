import type { Page } from '../pagination';
import type { IdRequest, Rpc } from '../rpc';
import type { SmsSubjects } from './sms';
import type {
  ListSmsEventsRequest,
  ListSmsMessagesRequest,
  SmsBatchReply,
  SmsEvent,
  SmsMessage,
  SmsSendInput,
  SystemSmsSendRequest,
} from './sms';

export type SmsMessageIdRequest = IdRequest<'message_id'>;

/** The SMS messages operations of the sms-whatsapp service, by subject. */
export interface SmsRpc {
  [SmsSubjects.SendMessage]: Rpc<SmsSendInput, SmsMessage>;
  [SmsSubjects.SendBatch]: Rpc<SmsSendInput, SmsBatchReply>;
  [SmsSubjects.GetMessage]: Rpc<SmsMessageIdRequest, SmsMessage>;
  [SmsSubjects.ListMessages]: Rpc<ListSmsMessagesRequest, Page<SmsMessage>>;
  [SmsSubjects.ListEvents]: Rpc<ListSmsEventsRequest, { data: SmsEvent[] }>;
  [SmsSubjects.SendSystemMessage]: Rpc<SystemSmsSendRequest, SmsMessage>;
}
