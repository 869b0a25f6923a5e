import { completedJobsCte } from '@switchboard/background';
import { Injectable } from '@nestjs/common';
import type { WhatsAppError } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SENDING_NUMBER_STATUSES_SQL } from '../numbers/sending-statuses';
import { eventInserts, eventRows } from '../messages';
import type { WhatsAppEventRecord, WhatsAppMessageRow } from '../messages';

/** An accepted message as the dispatcher reads it, with its number and its service window. */
export interface DispatchRow extends WhatsAppMessageRow {
  phone_number_id: string;
  /** The number's WhatsApp Business Account id: the sender scope of the preferences. */
  waba: string;
  /** The number is still connected and still the workspace's. */
  number_connected: boolean;
  /** The contact wrote to the number within the last 24 hours. */
  window_open: boolean;
}

export interface SentRecord {
  id: string;
  wamid: string;
  at: Date;
}

export interface FailedRecord {
  id: string;
  /** `rejected`: stopped before Meta saw it (the recipient's preferences changed meanwhile). */
  status: 'failed' | 'rejected';
  error: WhatsAppError;
  at: Date;
}

/** Named queries of the dispatcher. */
@Injectable()
export class DispatchRepository {
  async messages(runner: SqlRunner, ids: string[]): Promise<DispatchRow[]> {
    return rowsOf<DispatchRow>(
      await runner.query(
        `SELECT m.*, n.phone_number_id, a.waba,
           (n.status IN (${SENDING_NUMBER_STATUSES_SQL}) AND n.workspace_id = m.workspace_id)
             AS number_connected,
           EXISTS (SELECT 1 FROM sms_whatsapp.whatsapp_service_windows w
                   WHERE w.number_id = m.number_id
                     AND w.contact IN (m.contact_phone, m.contact_bsuid)
                     AND w.last_inbound_at > clock_timestamp() - interval '24 hours') AS window_open
         FROM sms_whatsapp.whatsapp_messages m
         JOIN sms_whatsapp.whatsapp_numbers n ON n.id = m.number_id
         JOIN sms_whatsapp.whatsapp_business_accounts a ON a.id = n.business_account_id
         WHERE m.id = ANY ($1::text[])`,
        [ids],
      ),
    );
  }

  /**
   * In ONE statement: messages Meta took become `sent` with their wamid, refused ones `failed`
   * (or `rejected`), and their events go to the timeline and the outbox. Only `accepted`
   * messages change.
   */
  async record(
    executor: SqlRunner,
    sent: SentRecord[],
    failed: FailedRecord[],
    events: WhatsAppEventRecord[],
  ): Promise<void> {
    if (sent.length === 0 && failed.length === 0) return;
    await executor.query(recordSql(false), recordParams(sent, failed, events));
  }

  /**
   * `record` and the completion of the jobs in the same ONE statement (autocommit: one round
   * trip), fenced: only the messages of the jobs this worker still holds (id and attempts
   * unchanged) are recorded, so the wamid is stored exactly when the job is gone. Answers the
   * ids of the jobs it deleted.
   */
  async recordCompleting(
    executor: SqlRunner,
    jobs: ReadonlyArray<{ id: string; attempts: number }>,
    sent: SentRecord[],
    failed: FailedRecord[],
    events: WhatsAppEventRecord[],
  ): Promise<Set<string>> {
    const rows = rowsOf<{ id: string }>(
      await executor.query(recordSql(true), [
        ...recordParams(sent, failed, events),
        jobs.map((job) => job.id),
        jobs.map((job) => job.attempts),
      ]),
    );
    return new Set(rows.map((row) => String(row.id)));
  }
}

/** The statement of `record`; `fenced` adds the jobs' deletion ($5 ids, $6 attempts). */
function recordSql(fenced: boolean): string {
  const ours = (column: string) => (fenced ? ` AND ${column} IN (SELECT key FROM done)` : '');
  const done = fenced ? `${completedJobsCte('sms_whatsapp', 5, 'message_id')}, ` : '';
  return `WITH ${done}s AS (
       UPDATE sms_whatsapp.whatsapp_messages m
       SET status = 'sent', sent_at = x.at, status_at = x.at, provider_message_id = x.wamid
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, wamid text, at timestamptz)
       WHERE m.id = x.id AND m.status = 'accepted'${ours('x.id')}
     ), f AS (
       UPDATE sms_whatsapp.whatsapp_messages m
       SET status = x.status, status_at = x.at,
         failed_at = CASE WHEN x.status = 'failed' THEN x.at END,
         last_error_code = x.error->>'code', last_error_description = x.error->>'description',
         last_error_meta_code = (x.error->>'meta_error_code')::int, last_error_at = x.at
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, status text, error jsonb, at timestamptz)
       WHERE m.id = x.id AND m.status = 'accepted'${ours('x.id')}
     ), ${eventInserts('$3', '$4', fenced ? '(SELECT key FROM done)' : undefined)}
     ${fenced ? 'SELECT id::text AS id FROM done' : 'SELECT 1'}`;
}

function recordParams(
  sent: SentRecord[],
  failed: FailedRecord[],
  events: WhatsAppEventRecord[],
): unknown[] {
  const [timeline, outbox] = eventRows(events);
  return [JSON.stringify(sent), JSON.stringify(failed), timeline, outbox];
}
