import { SMS_EVENT_TYPES } from '@switchboard/contracts';
import type { SmsError, SmsEventType, SmsSegments, SmsTag } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';

/** What every event of a message echoes (the SDK's `EventSmsBase`). */
export interface SmsEventSubject {
  messageId: string;
  workspaceId: string;
  to: string;
  from: string;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}

/** Beside the base: what the event's type adds (segments, carrier, error, text). */
export interface SmsEventExtra {
  segments?: SmsSegments;
  carrier?: string | null;
  mccMnc?: string | null;
  error?: SmsError;
  text?: string;
}

/**
 * A step of a message's timeline that is no webhook event: a carrier's intermediate receipt
 * (ACCEPTD, ENROUTE, or a state it made up). The timeline's types are open.
 */
export type SmsTimelineOnlyType = 'sms.carrier_accepted' | 'sms.enroute' | 'sms.carrier_status';

/** One event, as the timeline stores it and as the outbox publishes it (same id). */
export interface SmsEventRecord {
  id: string;
  messageId: string;
  workspaceId: string;
  type: SmsEventType | SmsTimelineOnlyType;
  occurredAt: Date;
  carrier: string | null;
  mccMnc: string | null;
  error: SmsError | null;
  /** The webhook body's `data`. */
  data: Record<string, unknown>;
}

export function smsEvent(
  type: SmsEventType | SmsTimelineOnlyType,
  subject: SmsEventSubject,
  occurredAt: Date,
  extra: SmsEventExtra = {},
): SmsEventRecord {
  const data: Record<string, unknown> = {
    sms_id: subject.messageId,
    workspace_id: subject.workspaceId,
    to: subject.to,
    from: subject.from,
    tags: subject.tags.length ? subject.tags : null,
    metadata: Object.keys(subject.metadata).length ? subject.metadata : null,
  };
  if (extra.segments) data.segments = extra.segments;
  if (extra.text !== undefined) data.text = extra.text;
  if (extra.carrier) data.carrier = extra.carrier;
  if (extra.mccMnc) data.mcc_mnc = extra.mccMnc;
  if (extra.error) data.error = extra.error;
  return {
    id: newId('ev', occurredAt.getTime()),
    messageId: subject.messageId,
    workspaceId: subject.workspaceId,
    type,
    occurredAt,
    carrier: extra.carrier ?? null,
    mccMnc: extra.mccMnc ?? null,
    error: extra.error ?? null,
    data,
  };
}

/**
 * The CTE parts that write events, for any statement recording them: the timeline rows from the
 * JSON array in parameter `timeline`, the outbox rows (as `writeOutboxEvents` writes them) from
 * `outbox`. Name them with `eventRows(events)`.
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
