import { Injectable } from '@nestjs/common';
import type { WhatsAppError, WhatsAppMessageEventType } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { MESSAGE_COLUMNS } from './message.mapper';
import type { WhatsAppMessageRow } from './message.mapper';
import { whatsappErrorOf } from './meta-errors';
import type { MetaErrorLike } from './meta-errors';
import { eventInserts, eventRows, eventSubjectOf, whatsappEvent } from './whatsapp-events';
import type { WhatsAppEventRecord } from './whatsapp-events';

/** One status of Meta's `statuses[]`: its wamid, `sent|delivered|read|failed`, its time. */
export interface StatusUpdate {
  wamid: string;
  status: string;
  /** Meta's unix seconds (as Meta sends them, a string), or a Date. */
  timestamp: string | number | Date;
  errors?: MetaErrorLike[];
}

type StatusRow = WhatsAppMessageRow & { provider_message_id: string; failed_at: Date | null };

/** A message's state while the statuses of one call fold into it. */
interface Folded {
  row: StatusRow;
  status: string;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  error: WhatsAppError | null;
  events: WhatsAppEventRecord[];
}

const PROGRESS = ['sent', 'delivered', 'read'] as const;
const OPEN = new Set(['accepted', 'sent']);

const dateOf = (value: Date | string | null): Date | null =>
  value === null ? null : new Date(value);

function timeOf(timestamp: StatusUpdate['timestamp']): Date {
  if (timestamp instanceof Date) return timestamp;
  const text = String(timestamp);
  return /^\d+$/.test(text) ? new Date(Number(text) * 1000) : new Date(text);
}

/**
 * Meta's statuses of outbound messages, applied once and monotonically: `sent`, `delivered` and
 * `read` only ever set a time that was unset (a late `delivered` after `read` keeps `read_at`;
 * `read` implies `delivered`, and both imply `sent`), `failed` fails a message not yet delivered.
 * Each type is written once per message to the timeline and the outbox (a unique index on the
 * timeline makes a retried webhook publish nothing twice).
 */
@Injectable()
export class WhatsAppStatusesRepository {
  /**
   * Applies `statuses` in the caller's transaction (the rows are locked while they change), in
   * two statements whatever their number. Answers the wamids that matched a message: a status
   * whose wamid is not known (yet: Meta may report `sent` before the dispatcher has recorded the
   * wamid Meta answered) is the caller's to apply again later; a reaction's wamid never matches.
   * `numberId`, when given, limits the statuses to the messages of the number they came to.
   */
  async applyStatuses(
    manager: SqlRunner,
    statuses: StatusUpdate[],
    numberId?: string,
  ): Promise<Set<string>> {
    const wamids = [...new Set(statuses.map((status) => status.wamid))];
    if (wamids.length === 0) return new Set();
    const rows = rowsOf<StatusRow>(
      await manager.query(
        `SELECT ${MESSAGE_COLUMNS}, provider_message_id, failed_at
         FROM sms_whatsapp.whatsapp_messages
         WHERE direction = 'outbound' AND provider_message_id = ANY ($1::text[])
           AND ($2::text IS NULL OR number_id = $2)
         ORDER BY id FOR UPDATE`,
        [wamids, numberId ?? null],
      ),
    );
    const byWamid = new Map(rows.map((row) => [row.provider_message_id, fresh(row)]));
    for (const update of statuses) {
      const state = byWamid.get(update.wamid);
      if (state) fold(state, update);
    }
    const changed = [...byWamid.values()].filter((state) => state.events.length > 0);
    if (changed.length > 0) await write(manager, changed);
    return new Set(byWamid.keys());
  }
}

function fresh(row: StatusRow): Folded {
  return {
    row,
    status: row.status,
    sentAt: dateOf(row.sent_at),
    deliveredAt: dateOf(row.delivered_at),
    readAt: dateOf(row.read_at),
    failedAt: dateOf(row.failed_at),
    error: null,
    events: [],
  };
}

function emit(state: Folded, type: WhatsAppMessageEventType, at: Date, error?: WhatsAppError) {
  if (state.events.some((event) => event.type === type)) return;
  state.events.push(whatsappEvent(type, eventSubjectOf(state.row), at, { error }));
}

function fold(state: Folded, update: StatusUpdate): void {
  const at = timeOf(update.timestamp);
  if (Number.isNaN(at.getTime())) return;
  if (update.status === 'failed') {
    if (!OPEN.has(state.status)) return;
    state.status = 'failed';
    state.failedAt = at;
    state.error = whatsappErrorOf(update.errors?.[0], at);
    emit(state, 'whatsapp.failed', at, state.error);
    return;
  }
  const reached = PROGRESS.indexOf(update.status as (typeof PROGRESS)[number]);
  if (reached < 0 || state.status === 'failed') return;
  if (!state.sentAt) {
    state.sentAt = at;
    emit(state, 'whatsapp.sent', at);
  }
  if (reached >= 1 && !state.deliveredAt) {
    state.deliveredAt = at;
    emit(state, 'whatsapp.delivered', at);
  }
  if (reached >= 2 && !state.readAt) {
    state.readAt = at;
    emit(state, 'whatsapp.read', at);
  }
  if (OPEN.has(state.status)) state.status = state.deliveredAt ? 'delivered' : 'sent';
}

async function write(manager: SqlRunner, changed: Folded[]): Promise<void> {
  const [timeline, outbox] = eventRows(changed.flatMap((state) => state.events));
  await manager.query(
    `WITH u AS (
       UPDATE sms_whatsapp.whatsapp_messages m
       SET status = x.status, sent_at = x.sent_at, delivered_at = x.delivered_at,
         read_at = x.read_at, failed_at = x.failed_at,
         last_error_code = coalesce(x.error->>'code', m.last_error_code),
         last_error_description = coalesce(x.error->>'description', m.last_error_description),
         last_error_meta_code = coalesce((x.error->>'meta_error_code')::int, m.last_error_meta_code),
         last_error_at = coalesce((x.error->>'occurred_at')::timestamptz, m.last_error_at),
         status_at = CASE WHEN x.status <> m.status THEN clock_timestamp() ELSE m.status_at END
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, status text, sent_at timestamptz,
         delivered_at timestamptz, read_at timestamptz, failed_at timestamptz, error jsonb)
       WHERE m.id = x.id
     ), ${eventInserts('$2', '$3')}
     SELECT 1`,
    [
      JSON.stringify(
        changed.map((state) => ({
          id: state.row.id,
          status: state.status,
          sent_at: state.sentAt,
          delivered_at: state.deliveredAt,
          read_at: state.readAt,
          failed_at: state.failedAt,
          error: state.error,
        })),
      ),
      timeline,
      outbox,
    ],
  );
}
