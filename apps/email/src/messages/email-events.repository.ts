import { Injectable } from '@nestjs/common';
import { outboxChannel } from '@switchboard/background';
import type { SqlRunner } from '@switchboard/persistence';
import type { EmailEventRecord } from './email-events';

/** Events of messages: their timelines (email.events) and the outbox, written together. */
@Injectable()
export class EmailEventsRepository {
  /**
   * Writes events to the messages' timelines and, in the same statement (so the same
   * transaction), to the outbox the relay publishes from, with the NOTIFY that wakes the relay:
   * one round trip whatever the number of events. The outbox rows are those
   * `writeOutboxEvents` (libs/persistence) writes.
   */
  async record(runner: SqlRunner, events: EmailEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    await runner.query(
      `WITH ${eventInserts('$1', '$2')}
       SELECT pg_notify($3, '')`,
      [
        JSON.stringify(events.map(timelineRow)),
        JSON.stringify(events.map(outboxRow)),
        outboxChannel('email'),
      ],
    );
  }
}

/**
 * The two CTE parts that write events, for any statement that records them: timeline rows from
 * the JSON array in parameter `timeline` (see `timelineRow`), outbox rows from `outbox` (see
 * `outboxRow`). The outbox rows are those `writeOutboxEvents` (libs/persistence) writes.
 * `EmailEventsRepository.record` and the accept statement (`insertDrafts`) compose it.
 */
export function eventInserts(timeline: string, outbox: string): string {
  return `e AS (
       INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at,
         detail)
       SELECT id, message_id, workspace_id, recipient_id, type, occurred_at, detail
       FROM jsonb_to_recordset(${timeline}::jsonb) AS x(id text, message_id text,
         workspace_id text, recipient_id text, type text, occurred_at timestamptz, detail jsonb)
     ), o AS (
       INSERT INTO email.outbox (id, type, workspace_id, payload)
       SELECT id, type, workspace_id, payload
       FROM jsonb_to_recordset(${outbox}::jsonb) AS x(id text, type text, workspace_id text,
         payload jsonb)
     )`;
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

/** An event as a row of email.outbox (the body `writeOutboxEvents` stores). */
export function outboxRow(event: EmailEventRecord) {
  return {
    id: event.id,
    type: event.type,
    workspace_id: event.workspaceId,
    payload: { type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data },
  };
}
