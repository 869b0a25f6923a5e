import { SMS_EVENT_TYPES } from '@switchboard/contracts';
import type { SmsEventRecord } from './sms-events';

/**
 * The CTE parts that write events, for any statement recording them: the timeline rows from the
 * JSON array in parameter `timeline`, the outbox rows (as `writeOutboxEvents` writes them) from
 * `outbox`. Name them with `eventRows(events)`. `onlyMessages`, an SQL row set of message ids,
 * keeps the events of those messages only (a statement that records what it still holds).
 */
export function eventInserts(timeline: string, outbox: string, onlyMessages?: string): string {
  // The outbox rows carry no message id column: their payload's data does (`sms_id`).
  const timelineFilter = onlyMessages ? `WHERE message_id IN ${onlyMessages}` : '';
  const outboxFilter = onlyMessages ? `WHERE payload->'data'->>'sms_id' IN ${onlyMessages}` : '';
  return `ev AS (
       INSERT INTO sms_whatsapp.sms_message_events (id, message_id, workspace_id, type,
         occurred_at, carrier, mcc_mnc, error)
       SELECT id, message_id, workspace_id, type, occurred_at, carrier, mcc_mnc, error
       FROM jsonb_to_recordset(${timeline}::jsonb) AS x(id text, message_id text,
         workspace_id text, type text, occurred_at timestamptz, carrier text, mcc_mnc text,
         error jsonb)
       ${timelineFilter}
     ), ob AS (
       INSERT INTO sms_whatsapp.outbox (id, type, workspace_id, payload)
       SELECT id, type, workspace_id, payload
       FROM jsonb_to_recordset(${outbox}::jsonb) AS x(id text, type text, workspace_id text,
         payload jsonb)
       ${outboxFilter}
     )`;
}

const WEBHOOK_TYPES: ReadonlySet<string> = new Set(SMS_EVENT_TYPES);
const isWebhookEvent = (event: SmsEventRecord) => WEBHOOK_TYPES.has(event.type);

/** The two JSON parameters `eventInserts` reads (only webhook event types reach the outbox). */
export function eventRows(events: SmsEventRecord[]): [string, string] {
  return [
    JSON.stringify(
      events.map((event) => ({
        id: event.id,
        message_id: event.messageId,
        workspace_id: event.workspaceId,
        type: event.type,
        occurred_at: event.occurredAt.toISOString(),
        carrier: event.carrier,
        mcc_mnc: event.mccMnc,
        error: event.error,
      })),
    ),
    JSON.stringify(
      events.filter(isWebhookEvent).map((event) => ({
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
