import type { Page } from '../pagination';
import type { IdRequest, Rpc } from '../rpc';
import type { WhatsAppMessageSubjects } from './whatsapp-messages';
import type {
  ListWhatsAppEventsRequest,
  ListWhatsAppMessagesRequest,
  WhatsAppEventList,
  WhatsAppMessage,
  WhatsAppSendInput,
} from './whatsapp-messages';

export type WhatsAppMessageIdRequest = IdRequest<'message_id'>;

/** The WhatsApp messages operations of the sms-whatsapp service, by subject. */
export interface WhatsAppMessagesRpc {
  [WhatsAppMessageSubjects.SendMessage]: Rpc<WhatsAppSendInput, WhatsAppMessage>;
  [WhatsAppMessageSubjects.GetMessage]: Rpc<WhatsAppMessageIdRequest, WhatsAppMessage>;
  [WhatsAppMessageSubjects.ListMessages]: Rpc<ListWhatsAppMessagesRequest, Page<WhatsAppMessage>>;
  [WhatsAppMessageSubjects.ListEvents]: Rpc<ListWhatsAppEventsRequest, WhatsAppEventList>;
}
