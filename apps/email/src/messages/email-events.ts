import type { EmailEvent, EmailMessageEventType, EmailTag } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import { mailboxProviderOf } from './mailbox-providers';

/** What every event of a message echoes (the SDK's `EventEmailMessageBase`). */
export interface EventSubject {
  messageId: string;
  workspaceId: string;
  tags: EmailTag[];
  metadata: Record<string, unknown> | null;
  /** The broadcast a recipient's copy belongs to; absent or null for any other message. */
  broadcastId?: string | null;
}

export interface EventRecipient {
  id: string;
  email: string;
  role: 'to' | 'cc' | 'bcc';
}

/** Fields an event adds beside the base: bounce details, rejection reason, schedule. */
export type EventDetail = Omit<
  Partial<EmailEvent>,
  'id' | 'type' | 'occurred_at' | 'recipient_id'
> & {
  defer_reason?: string | null;
  scheduled_at?: string;
};

/** One event, as the timeline stores it and as the outbox publishes it (same id: consumers dedupe). */
export interface EmailEventRecord {
  id: string;
  messageId: string;
  workspaceId: string;
  recipientId: string | null;
  type: EmailMessageEventType;
  occurredAt: Date;
  detail: EventDetail;
  /** The webhook body's `data` (the SDK's `WebhookEvent` payload for the type). */
  data: Record<string, unknown>;
}

/**
 * The events the SDK names the recipient's mailbox provider on: every one from processing on
 * (complaints and late bounces too, once a feedback loop writes them).
 */
const WITH_MAILBOX_PROVIDER: ReadonlySet<string> = new Set([
  'email.processed',
  'email.delivered',
  'email.complained',
  'email.bounced',
  'email.out_of_band_bounce',
  'email.deferred',
  'email.rejected',
  'email.unsubscribed',
  'email.list_unsubscribed',
  'email.opened',
  'email.clicked',
]);

/** An event about one recipient (`email.accepted`, `email.delivered`, `email.bounced`, ...). */
export function recipientEvent(
  type: EmailMessageEventType,
  subject: EventSubject,
  recipient: EventRecipient,
  occurredAt: Date,
  given: EventDetail = {},
): EmailEventRecord {
  const detail = WITH_MAILBOX_PROVIDER.has(type)
    ? { mailbox_provider: mailboxProviderOf(recipient.email), ...given }
    : given;
  return {
    id: newId('ev', occurredAt.getTime()),
    messageId: subject.messageId,
    workspaceId: subject.workspaceId,
    recipientId: recipient.id,
    type,
    occurredAt,
    detail,
    data: {
      email_id: subject.messageId,
      recipient_id: recipient.id,
      workspace_id: subject.workspaceId,
      recipient: recipient.email,
      recipient_role: recipient.role,
      tags: subject.tags.length ? subject.tags : null,
      metadata: subject.metadata,
      broadcast_id: subject.broadcastId ?? null,
      ...withoutUndefined(detail),
    },
  };
}

/** An event about the whole message (`email.scheduled`, `email.canceled`): once, whatever the recipients. */
export function messageEvent(
  type: EmailMessageEventType,
  subject: EventSubject,
  occurredAt: Date,
  detail: EventDetail = {},
): EmailEventRecord {
  return {
    id: newId('ev', occurredAt.getTime()),
    messageId: subject.messageId,
    workspaceId: subject.workspaceId,
    recipientId: null,
    type,
    occurredAt,
    detail,
    data: {
      email_id: subject.messageId,
      workspace_id: subject.workspaceId,
      tags: subject.tags.length ? subject.tags : null,
      metadata: subject.metadata,
      ...withoutUndefined(detail),
    },
  };
}

function withoutUndefined(detail: EventDetail): Record<string, unknown> {
  return Object.fromEntries(Object.entries(detail).filter(([, value]) => value !== undefined));
}
