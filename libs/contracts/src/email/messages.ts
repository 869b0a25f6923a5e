/**
 * Email: messages, batches, sending domains and suppressions (spec: Email messages; reference
 * sections 5, 6 and 11; contract section 6). Shapes follow the SDK's `EmailMessage`,
 * `EmailRecipient`, `EmailEvent`, `Domain` and the reference's `Suppression`.
 */
export const EmailSubjects = {
  SendMessage: 'email.message.send',
  SendBatch: 'email.batch.send',
  GetMessage: 'email.message.get',
  ListMessages: 'email.message.list',
  CancelMessage: 'email.message.cancel',
  ListRecipients: 'email.recipient.list',
  GetContent: 'email.content.get',
  ListEvents: 'email.event.list',
  CreateDomain: 'email.domain.create',
  ListDomains: 'email.domain.list',
  GetDomain: 'email.domain.get',
  UpdateDomain: 'email.domain.update',
  DeleteDomain: 'email.domain.delete',
  VerifyDomain: 'email.domain.verify',
  CreateSuppression: 'email.suppression.create',
  ListSuppressions: 'email.suppression.list',
  GetSuppression: 'email.suppression.get',
  DeleteSuppression: 'email.suppression.delete',
} as const;

export type EmailCategory = 'marketing' | 'transactional';

export interface EmailAddress {
  email: string;
  name?: string;
}

export interface EmailTag {
  name: string;
  value: string;
}

/** An attachment as the gateway forwards it: base64 content, type resolved, size decoded. */
export interface EmailAttachmentInput {
  filename: string;
  content: string;
  content_type: string;
  content_id?: string;
}

export interface EmailAttachmentRef {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  inline: boolean;
  content_id: string | null;
}

/**
 * `POST /v1/email/messages` and `/v1/email/batches` as the gateway forwards them: the JSON body,
 * which passed the route's shape DTO (unknown fields refused) but none of the product's rules, and
 * what only the gateway knows. The email service applies every rule (send-request.normaliser).
 */
export interface EmailSendInput {
  body: unknown;
  /**
   * Lowercased emails of the workspace's users, who onboarding-domain mail may reach; attached
   * when a sender may be on the onboarding domain.
   */
  workspace_user_emails?: string[];
}

/**
 * One send after the email service's rules: every address is an object with its email trimmed
 * and lowercased, the category defaulted, `scheduled_at` an ISO timestamp.
 */
export interface EmailSendRequest {
  from: EmailAddress;
  to: EmailAddress[];
  cc: EmailAddress[];
  bcc: EmailAddress[];
  reply_to: EmailAddress[];
  subject: string;
  html?: string;
  text?: string;
  category: EmailCategory;
  tags: EmailTag[];
  metadata?: Record<string, unknown>;
  parameters?: Record<string, unknown>;
  headers: Record<string, string>;
  attachments: EmailAttachmentInput[];
  track_opens: boolean;
  track_clicks: boolean;
  ip_pool_id?: string;
  scheduled_at?: string;
  /** A send by template: its content comes from the template's live version. */
  template?: EmailTemplateSendInput;
  /** Lowercased emails of the workspace's users: who onboarding-domain mail may reach. */
  workspace_user_emails?: string[];
}

/** A send's `template` after the service's rules (the SDK's `EmailTemplateSend`). */
export interface EmailTemplateSendInput {
  id?: string;
  slug?: string;
  language?: string;
  parameters?: Record<string, unknown>;
  /** The send gave no `category`: it takes the template's. */
  inherit_category: boolean;
}

export interface EmailBatchRequest {
  messages: EmailSendRequest[];
}

export type EmailMessageStatus =
  | 'scheduled'
  | 'accepted'
  | 'processed'
  | 'deferred'
  | 'delivered'
  | 'partial_failure'
  | 'bounced'
  | 'complained'
  | 'rejected'
  | 'canceled';

export interface EmailMessage {
  id: string;
  from: EmailAddress;
  to: EmailAddress[];
  cc: EmailAddress[];
  bcc: EmailAddress[];
  reply_to: EmailAddress[] | null;
  subject: string;
  category: EmailCategory;
  status: EmailMessageStatus;
  accepted_count: number;
  processed_count: number;
  delivered_count: number;
  bounced_count: number;
  complained_count: number;
  deferred_count: number;
  rejected_count: number;
  open_count: number;
  click_count: number;
  processing_latency_ms: number | null;
  delivery_latency_ms: number | null;
  total_latency_ms: number | null;
  requested_language: string | null;
  resolved_language: string | null;
  template_id: string | null;
  template_version_id: string | null;
  tags: EmailTag[];
  metadata: Record<string, unknown>;
  parameters: Record<string, unknown> | null;
  attachments: EmailAttachmentRef[];
  track_opens: boolean;
  track_clicks: boolean;
  ip_pool_id: string | null;
  created_at: string;
  delivered_at: string | null;
  thread_id: null;
  in_reply_to_message_id: null;
  scheduled_at?: string;
}

export interface EmailBatchItem {
  id: string;
  status: 'accepted';
  category: EmailCategory;
  requested_language: string | null;
  resolved_language: string | null;
  template_id: string | null;
  template_version_id: string | null;
  scheduled_at?: string;
}

export type EmailRecipientStatus =
  'accepted' | 'processed' | 'deferred' | 'delivered' | 'bounced' | 'complained' | 'rejected';

export type EmailRejectionReason =
  | 'recipient_suppressed'
  | 'transmission_failed'
  | 'generation_failure'
  | 'policy_rejection'
  | 'domain_unverified'
  | 'quota_exceeded'
  | 'recipient_not_allowed';

export type EmailBounceType = 'hard' | 'soft' | 'undetermined' | 'admin' | 'block';

export interface EmailRecipient {
  id: string;
  parent_id: string;
  role: 'to' | 'cc' | 'bcc';
  recipient: string;
  name: string | null;
  status: EmailRecipientStatus;
  rejection_reason: EmailRejectionReason | null;
  bounce_type: EmailBounceType | null;
  bounce_code: string | null;
  bounce_description: string | null;
  processed_at: string | null;
  delivered_at: string | null;
  processing_latency_ms: number | null;
  delivery_latency_ms: number | null;
  total_latency_ms: number | null;
  open_count: number;
  click_count: number;
}

export interface EmailEvent {
  id: string;
  type: string;
  occurred_at: string;
  recipient_id: string | null;
  bounce_type?: EmailBounceType | null;
  bounce_class?: number | null;
  bounce_code?: string | null;
  bounce_description?: string | null;
  rejection_reason?: EmailRejectionReason | null;
  /** `email.opened`: fetched by an inbox's privacy or image proxy, not shown to a person. */
  is_prefetched?: boolean | null;
  /** `email.clicked` (and `email.unsubscribed` through a link): where the link led. */
  url?: string | null;
  link_name?: string | null;
  /** `email.opened` and `email.clicked`: the client that loaded the pixel or followed the link. */
  ip_address?: string | null;
  user_agent?: string | null;
}

export interface EmailContent {
  html?: string;
  text?: string;
}

export interface ListEmailMessagesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  created_after?: string;
  created_before?: string;
  status?: EmailMessageStatus;
  /** Tag filter, `name` or `name:value`. */
  tag?: string;
  /**
   * Every tag filter of the request (the `tag` query parameter may be repeated), `tag` being the
   * first; a message must carry all of them.
   */
  tags?: string[];
  category?: EmailCategory;
  to?: string;
  from?: string;
}
