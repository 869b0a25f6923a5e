import type { Page } from '../pagination';
import type { NoContent, Rpc } from '../rpc';
import type { WhatsAppInteractionsSubjects } from './interactions';
import type {
  ListWhatsAppReactionEventsRequest,
  ReadWhatsAppMediaRequest,
  WhatsAppMarkReadRequest,
  WhatsAppMediaChunk,
  WhatsAppMediaLink,
  WhatsAppMediaLinkRequest,
  WhatsAppReactionAccepted,
  WhatsAppReactionEvent,
  WhatsAppReadReceipt,
  WhatsAppSetReactionRequest,
} from './interactions';

/** Read receipts, reactions and inbound media of the sms-whatsapp service, by subject. */
export interface WhatsAppInteractionsRpc {
  [WhatsAppInteractionsSubjects.MarkRead]: Rpc<WhatsAppMarkReadRequest, WhatsAppReadReceipt>;
  [WhatsAppInteractionsSubjects.SetReaction]: Rpc<
    WhatsAppSetReactionRequest,
    WhatsAppReactionAccepted
  >;
  [WhatsAppInteractionsSubjects.RemoveReaction]: Rpc<{ message_id: string }, NoContent>;
  [WhatsAppInteractionsSubjects.ListReactionEvents]: Rpc<
    ListWhatsAppReactionEventsRequest,
    Page<WhatsAppReactionEvent>
  >;
  [WhatsAppInteractionsSubjects.MediaLink]: Rpc<WhatsAppMediaLinkRequest, WhatsAppMediaLink>;
  [WhatsAppInteractionsSubjects.ReadMedia]: Rpc<ReadWhatsAppMediaRequest, WhatsAppMediaChunk>;
}
