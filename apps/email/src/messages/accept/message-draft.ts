import type { EmailAddress, EmailSendRequest } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import { messageEvent, recipientEvent } from '../email-events';
import type { EmailEventRecord } from '../email-events';
import type { MessageRow } from '../message.mapper';
import type { TemplatePinGuard } from '../../templates';

/** Columns of email.messages that processing and delivery fill in, never a send. */
type DerivedColumn =
  | 'processed_count'
  | 'delivered_count'
  | 'bounced_count'
  | 'complained_count'
  | 'deferred_count'
  | 'rejected_count'
  | 'open_count'
  | 'click_count'
  | 'processing_latency_ms'
  | 'delivery_latency_ms'
  | 'total_latency_ms'
  | 'processed_at'
  | 'delivered_at'
  | 'canceled_at';

/** The rows one accepted send writes: the message, its recipients, content and first events. */
export interface MessageDraft {
  /** The message's columns as a send sets them; timestamps as ISO text for the JSON insert. */
  // A broadcast's copies are written by the broadcast's own statement, which sets `broadcast_id`.
  message: Omit<
    MessageRow,
    DerivedColumn | 'broadcast_id' | 'status' | 'scheduled_at' | 'created_at'
  > & {
    status: 'accepted' | 'scheduled';
    scheduled_at: string | null;
    created_at: string;
  };
  recipients: Array<{
    id: string;
    message_id: string;
    workspace_id: string;
    position: number;
    role: 'to' | 'cc' | 'bcc';
    email: string;
    name: string | null;
    allowed: boolean;
    status: 'accepted';
  }>;
  content: {
    message_id: string;
    workspace_id: string;
    html: string | null;
    text: string | null;
    attachments: EmailSendRequest['attachments'];
  };
  events: EmailEventRecord[];
  /** Its `scheduled_at`, or undefined: processed at once (by the database's clock). */
  runAt: Date | undefined;
  /** A send by template pinned without a query: what its insert must find still live. */
  templatePin?: TemplatePinGuard;
}

/** The template version a send rendered, and the languages asked for and served. */
export interface TemplateOrigin {
  template_id: string | null;
  template_version_id: string | null;
  requested_language: string | null;
  resolved_language: string | null;
}

const NO_TEMPLATE: TemplateOrigin = {
  template_id: null,
  template_version_id: null,
  requested_language: null,
  resolved_language: null,
};

export function senderDomainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Turns one validated send into the rows to write. `onboarding` marks a send from the shared
 * domain: its recipients outside the workspace's users are kept, flagged not `allowed`, and
 * rejected when the message is processed (spec: rejections happen after acceptance).
 */
export function draftMessage(
  workspaceId: string,
  request: EmailSendRequest,
  onboarding: boolean,
  now: Date,
  origin: TemplateOrigin = NO_TEMPLATE,
): MessageDraft {
  const id = newId('em', now.getTime());
  const allowedUsers = new Set(request.workspace_user_emails ?? []);
  const roles: Array<['to' | 'cc' | 'bcc', EmailAddress[]]> = [
    ['to', request.to],
    ['cc', request.cc],
    ['bcc', request.bcc],
  ];
  const recipients = roles
    .flatMap(([role, addresses]) => addresses.map((address) => ({ role, address })))
    .map(({ role, address }, position) => ({
      id: newId('er', now.getTime()),
      message_id: id,
      workspace_id: workspaceId,
      position,
      role,
      email: address.email,
      name: address.name ?? null,
      allowed: !onboarding || allowedUsers.has(address.email),
      status: 'accepted' as const,
    }));
  const scheduledAt = request.scheduled_at ? new Date(request.scheduled_at) : null;
  const subject = {
    messageId: id,
    workspaceId,
    tags: request.tags,
    metadata: request.metadata ?? null,
  };
  const events: EmailEventRecord[] = scheduledAt
    ? [messageEvent('email.scheduled', subject, now, { scheduled_at: scheduledAt.toISOString() })]
    : recipients.map((recipient) => recipientEvent('email.accepted', subject, recipient, now));
  return {
    message: {
      id,
      workspace_id: workspaceId,
      from_email: request.from.email,
      from_name: request.from.name ?? null,
      sender_domain: senderDomainOf(request.from.email),
      onboarding,
      to_addresses: request.to,
      cc_addresses: request.cc,
      bcc_addresses: request.bcc,
      reply_to: request.reply_to,
      subject: request.subject,
      category: request.category,
      status: scheduledAt ? 'scheduled' : 'accepted',
      tags: request.tags,
      metadata: request.metadata ?? null,
      // What the send supplied, inline or to its template (the SDK's `parameters`).
      parameters: request.parameters ?? request.template?.parameters ?? null,
      headers: request.headers,
      attachments: request.attachments.map((attachment) => ({
        id: newId('ea', now.getTime()),
        filename: attachment.filename,
        content_type: attachment.content_type,
        size: Buffer.byteLength(attachment.content, 'base64'),
        inline: attachment.content_id !== undefined,
        content_id: attachment.content_id ?? null,
      })),
      track_opens: request.track_opens,
      track_clicks: request.track_clicks,
      ip_pool_id: request.ip_pool_id ?? null,
      template_id: origin.template_id,
      template_version_id: origin.template_version_id,
      requested_language: origin.requested_language,
      resolved_language: origin.resolved_language,
      accepted_count: recipients.length,
      scheduled_at: scheduledAt ? scheduledAt.toISOString() : null,
      created_at: now.toISOString(),
    },
    recipients,
    content: {
      message_id: id,
      workspace_id: workspaceId,
      html: request.html ?? null,
      text: request.text ?? null,
      attachments: request.attachments,
    },
    events,
    runAt: scheduledAt ?? undefined,
  };
}
