import type { Page } from '../pagination';
import type { IdRequest, NoContent, Rpc } from '../rpc';
import type { EmailEvent, EmailRecipient } from './messages';
import type {
  CreateEmailBroadcastRequest,
  EmailBroadcast,
  EmailBroadcastClickedLinkList,
  EmailBroadcastCounts,
  EmailBroadcastSendQuota,
  EmailBroadcastSubjects,
  EmailTemplateBroadcastSummary,
  ListEmailBroadcastEventsRequest,
  ListEmailBroadcastRecipientsRequest,
  ListEmailBroadcastsRequest,
  ListTemplateBroadcastsRequest,
  SendEmailBroadcastRequest,
  UpdateEmailBroadcastRequest,
} from './broadcasts';

export type EmailBroadcastIdRequest = IdRequest<'broadcast_id'>;

/** The email service's broadcast operations, by subject. */
export interface EmailBroadcastsRpc {
  [EmailBroadcastSubjects.Create]: Rpc<CreateEmailBroadcastRequest, EmailBroadcast>;
  [EmailBroadcastSubjects.List]: Rpc<ListEmailBroadcastsRequest, Page<EmailBroadcast>>;
  [EmailBroadcastSubjects.Get]: Rpc<EmailBroadcastIdRequest, EmailBroadcast>;
  [EmailBroadcastSubjects.Update]: Rpc<UpdateEmailBroadcastRequest, EmailBroadcast>;
  [EmailBroadcastSubjects.Delete]: Rpc<EmailBroadcastIdRequest, NoContent>;
  [EmailBroadcastSubjects.Send]: Rpc<SendEmailBroadcastRequest, EmailBroadcast>;
  [EmailBroadcastSubjects.Cancel]: Rpc<EmailBroadcastIdRequest, EmailBroadcast>;
  [EmailBroadcastSubjects.Counts]: Rpc<EmailBroadcastIdRequest, EmailBroadcastCounts>;
  [EmailBroadcastSubjects.SendQuota]: Rpc<EmailBroadcastIdRequest, EmailBroadcastSendQuota>;
  [EmailBroadcastSubjects.ListEvents]: Rpc<ListEmailBroadcastEventsRequest, Page<EmailEvent>>;
  [EmailBroadcastSubjects.ListRecipients]: Rpc<
    ListEmailBroadcastRecipientsRequest,
    Page<EmailRecipient>
  >;
  [EmailBroadcastSubjects.ClickedLinks]: Rpc<
    EmailBroadcastIdRequest,
    EmailBroadcastClickedLinkList
  >;
  [EmailBroadcastSubjects.ListForTemplate]: Rpc<
    ListTemplateBroadcastsRequest,
    Page<EmailTemplateBroadcastSummary>
  >;
}
