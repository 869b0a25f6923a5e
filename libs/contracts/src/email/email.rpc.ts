import type { PageRequest, Page } from '../pagination';
import type { IdRequest, NoContent, Rpc } from '../rpc';
import type { EmailSubjects } from './messages';
import type {
  EmailBatchItem,
  EmailContent,
  EmailEvent,
  EmailMessage,
  EmailRecipient,
  EmailSendInput,
  ListEmailMessagesRequest,
} from './messages';
import type {
  CreateEmailDomainRequest,
  EmailDomain,
  ListEmailDomainsRequest,
  UpdateEmailDomainRequest,
} from './domains';
import type {
  CreateEmailSuppressionReply,
  CreateEmailSuppressionRequest,
  EmailSuppression,
  EmailSuppressionIdRequest,
  ListEmailSuppressionsRequest,
} from './suppressions';

export type EmailMessageIdRequest = IdRequest<'message_id'>;
export type ListEmailRecipientsRequest = EmailMessageIdRequest & PageRequest;
export type ListEmailEventsRequest = EmailMessageIdRequest & PageRequest & { type?: string };
export type EmailDomainIdRequest = IdRequest<'domain_id'>;

/** The email service's operations, by subject. */
export interface EmailRpc {
  [EmailSubjects.SendMessage]: Rpc<EmailSendInput, EmailMessage>;
  [EmailSubjects.SendBatch]: Rpc<EmailSendInput, { data: EmailBatchItem[] }>;
  [EmailSubjects.GetMessage]: Rpc<EmailMessageIdRequest, EmailMessage>;
  [EmailSubjects.ListMessages]: Rpc<ListEmailMessagesRequest, Page<EmailMessage>>;
  [EmailSubjects.CancelMessage]: Rpc<EmailMessageIdRequest, NoContent>;
  [EmailSubjects.ListRecipients]: Rpc<ListEmailRecipientsRequest, Page<EmailRecipient>>;
  [EmailSubjects.GetContent]: Rpc<EmailMessageIdRequest, EmailContent>;
  [EmailSubjects.ListEvents]: Rpc<ListEmailEventsRequest, Page<EmailEvent>>;
  [EmailSubjects.CreateDomain]: Rpc<CreateEmailDomainRequest, EmailDomain>;
  [EmailSubjects.ListDomains]: Rpc<ListEmailDomainsRequest, Page<EmailDomain>>;
  [EmailSubjects.GetDomain]: Rpc<EmailDomainIdRequest, EmailDomain>;
  [EmailSubjects.UpdateDomain]: Rpc<UpdateEmailDomainRequest, EmailDomain>;
  [EmailSubjects.DeleteDomain]: Rpc<EmailDomainIdRequest, NoContent>;
  [EmailSubjects.VerifyDomain]: Rpc<EmailDomainIdRequest, EmailDomain>;
  [EmailSubjects.CreateSuppression]: Rpc<
    CreateEmailSuppressionRequest,
    CreateEmailSuppressionReply
  >;
  [EmailSubjects.ListSuppressions]: Rpc<ListEmailSuppressionsRequest, Page<EmailSuppression>>;
  [EmailSubjects.GetSuppression]: Rpc<EmailSuppressionIdRequest, EmailSuppression>;
  [EmailSubjects.DeleteSuppression]: Rpc<EmailSuppressionIdRequest, NoContent>;
}
