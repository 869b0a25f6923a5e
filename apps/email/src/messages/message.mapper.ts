import type {
  EmailAddress,
  EmailAttachmentRef,
  EmailBatchItem,
  EmailBounceType,
  EmailCategory,
  EmailEvent,
  EmailMessage,
  EmailMessageStatus,
  EmailRecipient,
  EmailRecipientStatus,
  EmailRejectionReason,
  EmailTag,
} from '@switchboard/contracts';

export interface MessageRow {
  id: string;
  workspace_id: string;
  from_email: string;
  from_name: string | null;
  sender_domain: string;
  onboarding: boolean;
  to_addresses: EmailAddress[];
  cc_addresses: EmailAddress[];
  bcc_addresses: EmailAddress[];
  reply_to: EmailAddress[];
  subject: string;
  category: EmailCategory;
  status: EmailMessageStatus;
  tags: EmailTag[];
  metadata: Record<string, unknown> | null;
  parameters: Record<string, unknown> | null;
  headers: Record<string, string>;
  attachments: EmailAttachmentRef[];
  track_opens: boolean;
  track_clicks: boolean;
  ip_pool_id: string | null;
  template_id: string | null;
  broadcast_id: string | null;
  template_version_id: string | null;
  requested_language: string | null;
  resolved_language: string | null;
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
  scheduled_at: Date | null;
  created_at: Date;
  processed_at: Date | null;
  delivered_at: Date | null;
  canceled_at: Date | null;
}

export interface RecipientRow {
  id: string;
  message_id: string;
  workspace_id: string;
  position: number;
  role: 'to' | 'cc' | 'bcc';
  email: string;
  name: string | null;
  allowed: boolean;
  status: EmailRecipientStatus;
  rejection_reason: EmailRejectionReason | null;
  bounce_type: EmailBounceType | null;
  bounce_code: string | null;
  bounce_description: string | null;
  attempts: number;
  first_deferred_at: Date | null;
  processed_at: Date | null;
  delivered_at: Date | null;
  finished_at: Date | null;
  open_count: number;
  click_count: number;
}

export interface EventRow {
  id: string;
  message_id: string;
  workspace_id: string;
  recipient_id: string | null;
  type: string;
  occurred_at: Date;
  detail: Partial<EmailEvent>;
}

/** Every column of email.messages a read returns; bodies live in email.contents and never here. */
export const MESSAGE_COLUMNS = `id, workspace_id, from_email, from_name, sender_domain, onboarding,
  to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags, metadata,
  parameters, headers, attachments, track_opens, track_clicks, ip_pool_id, template_id,
  broadcast_id, template_version_id, requested_language, resolved_language, accepted_count, processed_count,
  delivered_count, bounced_count, complained_count, deferred_count, rejected_count, open_count,
  click_count, processing_latency_ms, delivery_latency_ms, total_latency_ms, scheduled_at,
  created_at, processed_at, delivered_at, canceled_at`;

export const RECIPIENT_COLUMNS = `id, message_id, workspace_id, position, role, email, name, allowed,
  status, rejection_reason, bounce_type, bounce_code, bounce_description, attempts,
  first_deferred_at, processed_at, delivered_at, finished_at, open_count, click_count`;

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
const since = (from: Date, to: Date | null): number | null =>
  to ? Math.max(0, to.getTime() - from.getTime()) : null;

/** The API's message: the row's addresses, counts and lifecycle; never a body. */
export function toMessageDto(row: MessageRow): EmailMessage {
  const message: EmailMessage = {
    id: row.id,
    from: address(row.from_email, row.from_name),
    to: row.to_addresses,
    cc: row.cc_addresses,
    bcc: row.bcc_addresses,
    reply_to: row.reply_to.length ? row.reply_to : null,
    subject: row.subject,
    category: row.category,
    status: row.status,
    accepted_count: row.accepted_count,
    processed_count: row.processed_count,
    delivered_count: row.delivered_count,
    bounced_count: row.bounced_count,
    complained_count: row.complained_count,
    deferred_count: row.deferred_count,
    rejected_count: row.rejected_count,
    open_count: row.open_count,
    click_count: row.click_count,
    processing_latency_ms: row.processing_latency_ms,
    delivery_latency_ms: row.delivery_latency_ms,
    total_latency_ms: row.total_latency_ms,
    requested_language: row.requested_language,
    resolved_language: row.resolved_language,
    template_id: row.template_id,
    template_version_id: row.template_version_id,
    tags: row.tags,
    metadata: row.metadata ?? {},
    parameters: row.parameters,
    attachments: row.attachments,
    track_opens: row.track_opens,
    track_clicks: row.track_clicks,
    ip_pool_id: row.ip_pool_id,
    created_at: row.created_at.toISOString(),
    delivered_at: iso(row.delivered_at),
    thread_id: null,
    in_reply_to_message_id: null,
  };
  if (row.scheduled_at) message.scheduled_at = row.scheduled_at.toISOString();
  return message;
}

export function toBatchItem(row: MessageRow): EmailBatchItem {
  const item: EmailBatchItem = {
    id: row.id,
    status: 'accepted',
    category: row.category,
    requested_language: row.requested_language,
    resolved_language: row.resolved_language,
    template_id: row.template_id,
    template_version_id: row.template_version_id,
  };
  if (row.scheduled_at) item.scheduled_at = row.scheduled_at.toISOString();
  return item;
}

export function toRecipientDto(row: RecipientRow, acceptedAt: Date): EmailRecipient {
  return {
    id: row.id,
    parent_id: row.message_id,
    role: row.role,
    recipient: row.email,
    name: row.name,
    status: row.status,
    rejection_reason: row.rejection_reason,
    bounce_type: row.bounce_type,
    bounce_code: row.bounce_code,
    bounce_description: row.bounce_description,
    processed_at: iso(row.processed_at),
    delivered_at: iso(row.delivered_at),
    processing_latency_ms: since(acceptedAt, row.processed_at),
    delivery_latency_ms: row.processed_at ? since(row.processed_at, row.delivered_at) : null,
    total_latency_ms: since(acceptedAt, row.delivered_at),
    open_count: row.open_count,
    click_count: row.click_count,
  };
}

export function toEventDto(row: EventRow): EmailEvent {
  return {
    id: row.id,
    type: row.type,
    occurred_at: row.occurred_at.toISOString(),
    recipient_id: row.recipient_id,
    ...row.detail,
  };
}

function address(email: string, name: string | null): EmailAddress {
  return name ? { email, name } : { email };
}
