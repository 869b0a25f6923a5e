import { writeOutboxEvents } from '@switchboard/persistence';
import type { OutboxEvent, SqlRunner } from '@switchboard/persistence';
import type { EmailEventRecord } from './email-events';

/**
 * Writes events to the messages' timelines and, in the same transaction, to the outbox the relay
 * publishes from: two statements whatever the number of events.
 */
export async function recordEvents(executor: SqlRunner, events: EmailEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  await executor.query(
    `INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at, detail)
     SELECT id, message_id, workspace_id, recipient_id, type, occurred_at, detail
     FROM jsonb_to_recordset($1::jsonb) AS e(id text, message_id text, workspace_id text,
       recipient_id text, type text, occurred_at timestamptz, detail jsonb)`,
    [JSON.stringify(events.map(timelineRow))],
  );
  await writeOutboxEvents(executor, 'email', events.map(outboxEvent));
}

/** An event as a row of email.events. */
export function timelineRow(event: EmailEventRecord) {
  return {
    id: event.id,
    message_id: event.messageId,
    workspace_id: event.workspaceId,
    recipient_id: event.recipientId,
    type: event.type,
    occurred_at: event.occurredAt.toISOString(),
    detail: event.detail,
  };
}

function outboxEvent(event: EmailEventRecord): OutboxEvent {
  return {
    id: event.id,
    type: event.type,
    workspaceId: event.workspaceId,
    timestamp: event.occurredAt.toISOString(),
    data: event.data,
  };
}

/** An event as a row of email.outbox (the body `writeOutboxEvents` stores). */
export function outboxRow(event: EmailEventRecord) {
  return {
    id: event.id,
    type: event.type,
    workspace_id: event.workspaceId,
    payload: { type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data },
  };
}
