import { WHATSAPP_MESSAGE_EVENT_TYPES } from '@switchboard/contracts';
import type { WhatsAppError, WhatsAppMessageEventType } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import { addressesOf } from './message.mapper';
import type { WhatsAppAddress, WhatsAppMessageRow, WhatsAppTag } from './message.mapper';

/** What every event of a message echoes (the SDK's `EventWhatsAppBase`). */
export interface WhatsAppEventSubject {
  messageId: string;
  workspaceId: string;
  direction: 'outbound' | 'inbound';
  from: WhatsAppAddress;
  to: WhatsAppAddress;
  tags: WhatsAppTag[];
  metadata: Record<string, unknown>;
  inReplyToMessageId?: string | null;
}

/** One event, as the timeline stores it and as the outbox publishes it (same id). */
export interface WhatsAppEventRecord {
  id: string;
  messageId: string;
  workspaceId: string;
  type: WhatsAppMessageEventType;
  occurredAt: Date;
  error: WhatsAppError | null;
  /** The webhook body's `data`. */
  data: Record<string, unknown>;
}

/** The subject of a stored message's events. */
export function eventSubjectOf(row: WhatsAppMessageRow): WhatsAppEventSubject {
  return {
    messageId: row.id,
    workspaceId: row.workspace_id,
    direction: row.direction,
    ...addressesOf(row),
    tags: row.tags,
    metadata: row.metadata,
    inReplyToMessageId: row.in_reply_to_message_id,
  };
}

/**
 * An event of a message: `error` on `whatsapp.failed` and `whatsapp.rejected`; `content` (the
 * message's content field and its value, `{text: {...}}`, `interactive_reply`, ...) on
 * `whatsapp.received`, whose payload carries what the contact sent.
 */
export function whatsappEvent(
  type: WhatsAppMessageEventType,
  subject: WhatsAppEventSubject,
  occurredAt: Date,
  extra: { error?: WhatsAppError; content?: Record<string, unknown> } = {},
): WhatsAppEventRecord {
  const data: Record<string, unknown> = {
    whatsapp_id: subject.messageId,
    workspace_id: subject.workspaceId,
    direction: subject.direction,
    from: subject.from,
    to: subject.to,
    tags: subject.tags.length ? subject.tags : null,
    metadata: Object.keys(subject.metadata).length ? subject.metadata : null,
  };
  if (subject.inReplyToMessageId) data.in_reply_to_message_id = subject.inReplyToMessageId;
  if (extra.content) Object.assign(data, extra.content);
  if (extra.error) data.error = extra.error;
  return {
    id: newId('wae', occurredAt.getTime()),
    messageId: subject.messageId,
    workspaceId: subject.workspaceId,
    type,
    occurredAt,
    error: extra.error ?? null,
    data,
  };
}

const WEBHOOK_TYPES: ReadonlySet<string> = new Set(WHATSAPP_MESSAGE_EVENT_TYPES);

/** The two JSON parameters `eventInserts` reads. */
export function eventRows(events: WhatsAppEventRecord[]): [string, string] {
  return [
    JSON.stringify(
      events.map((event) => ({
        id: event.id,
        message_id: event.messageId,
        workspace_id: event.workspaceId,
        type: event.type,
        occurred_at: event.occurredAt.toISOString(),
        error: event.error,
      })),
    ),
    JSON.stringify(
      events
        .filter((event) => WEBHOOK_TYPES.has(event.type))
        .map((event) => ({
          id: event.id,
          type: event.type,
          workspace_id: event.workspaceId,
          payload: {
            type: event.type,
            timestamp: event.occurredAt.toISOString(),
            data: event.data,
          },
        })),
    ),
  ];
}

/**
 * The CTE parts that write events, for any statement recording them: the timeline rows from the
 * JSON parameter `timeline`, the outbox rows (as `writeOutboxEvents` writes them) from `outbox`
 * (both made by `eventRows`). A message has one event of a type (a unique index): an event its
 * timeline already holds is not written again, and neither is its outbox row, so Meta's retried
 * webhooks publish nothing twice. `onlyMessages`, an SQL row set of message ids, keeps the events
 * of those messages only (a statement that records what it still holds).
 */
export function eventInserts(timeline: string, outbox: string, onlyMessages?: string): string {
  const filter = onlyMessages ? `WHERE message_id IN ${onlyMessages}` : '';
  return `ev AS (
       INSERT INTO sms_whatsapp.whatsapp_message_events (id, message_id, workspace_id, type,
         occurred_at, error)
       SELECT id, message_id, workspace_id, type, occurred_at, error
       FROM jsonb_to_recordset(${timeline}::jsonb) AS x(id text, message_id text,
         workspace_id text, type text, occurred_at timestamptz, error jsonb)
       ${filter}
       ON CONFLICT (message_id, type) DO NOTHING
       RETURNING id
     ), ob AS (
       INSERT INTO sms_whatsapp.outbox (id, type, workspace_id, payload)
       SELECT id, type, workspace_id, payload
       FROM jsonb_to_recordset(${outbox}::jsonb) AS x(id text, type text, workspace_id text,
         payload jsonb)
       WHERE id IN (SELECT id FROM ev)
     )`;
}
