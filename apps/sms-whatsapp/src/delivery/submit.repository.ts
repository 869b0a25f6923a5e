import { completedJobsCte } from '@switchboard/background';
import { Injectable } from '@nestjs/common';
import type { SmsTag } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { eventInserts, eventRows } from '../messages';
import type { SmsEventRecord } from '../messages';

/** An accepted message as the submit worker reads it. */
export interface SubmitRow {
  id: string;
  workspace_id: string;
  status: string;
  from_address: string;
  to_address: string;
  category: string;
  text: string;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
  created_at: Date;
  /** Whether the workspace still holds its sender (a number not released, a sender ID registered). */
  sender_held: boolean;
}

export interface SentRecord {
  id: string;
  carrier: string;
  sentAt: Date;
  parts: Array<{ index: number; carrierMessageId: string; key: string }>;
  workspaceId: string;
}

export interface FailedRecord {
  id: string;
  /** `rejected`: stopped before the carrier saw it (an opt-out since it was accepted). */
  status: 'failed' | 'rejected';
  code: string;
  description: string;
  carrier_code: string | null;
  at: Date;
}

/** Named queries of the submit worker. */
@Injectable()
export class SubmitRepository {
  async messages(runner: SqlRunner, ids: string[]): Promise<SubmitRow[]> {
    return rowsOf<SubmitRow>(
      await runner.query(
        `SELECT m.id, m.workspace_id, m.status, m.from_address, m.to_address, m.category, m.text,
           m.tags,
           m.metadata, m.created_at,
           (EXISTS (SELECT 1 FROM sms_whatsapp.number_allocations a
                    WHERE a.number = m.from_address AND a.workspace_id = m.workspace_id
                      AND a.released_at IS NULL AND a.status = 'active')
            OR EXISTS (SELECT 1 FROM sms_whatsapp.sms_senders s
                       WHERE s.workspace_id = m.workspace_id AND s.sender = m.from_address))
             AS sender_held
         FROM sms_whatsapp.sms_messages m WHERE m.id = ANY ($1::text[])`,
        [ids],
      ),
    );
  }

  /**
   * In ONE statement: messages handed over become `sent` with their carrier and parts (the
   * carrier ids receipts are matched by), messages refused become `failed` (or `rejected`), and
   * their events go to the timeline and the outbox; each message's sensitive values, if any,
   * leave its text with it. Only `accepted` messages change.
   */
  async record(
    executor: SqlRunner,
    sent: SentRecord[],
    failed: FailedRecord[],
    events: SmsEventRecord[],
  ): Promise<void> {
    if (sent.length === 0 && failed.length === 0) return;
    await executor.query(RECORD_SQL, recordParams(sent, failed, events));
  }

  /**
   * `record` and the completion of the jobs in the same ONE statement (autocommit: one round
   * trip), fenced as `completeJobs` is: only the messages of the jobs this worker still holds
   * (id and attempts unchanged) are recorded; answers the ids of the jobs it deleted.
   */
  async recordCompleting(
    executor: SqlRunner,
    jobs: ReadonlyArray<{ id: string; attempts: number }>,
    sent: SentRecord[],
    failed: FailedRecord[],
    events: SmsEventRecord[],
  ): Promise<Set<string>> {
    const rows = rowsOf<{ id: string }>(
      await executor.query(RECORD_COMPLETING_SQL, [
        ...recordParams(sent, failed, events),
        jobs.map((job) => job.id),
        jobs.map((job) => job.attempts),
      ]),
    );
    return new Set(rows.map((row) => String(row.id)));
  }
}

/**
 * The statement of `record`; `fenced` adds the jobs' deletion ($6 ids, $7 attempts) and records
 * only the messages of the jobs it deleted.
 */
function recordSql(fenced: boolean): string {
  const ours = (column: string) => (fenced ? ` AND ${column} IN (SELECT key FROM done)` : '');
  const done = fenced ? `${completedJobsCte('sms_whatsapp', 6, 'message_id')}, ` : '';
  return `WITH ${done}s AS (
       UPDATE sms_whatsapp.sms_messages m
       SET status = 'sent', sent_at = x.sent_at, status_at = x.sent_at, carrier = x.carrier,
         parts = x.parts, text = coalesce(m.redacted_text, m.text), redacted_text = NULL
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, sent_at timestamptz, carrier text,
         parts int)
       WHERE m.id = x.id AND m.status = 'accepted'${ours('x.id')}
     ), p AS (
       INSERT INTO sms_whatsapp.sms_message_parts (message_id, part_index, workspace_id,
         carrier, carrier_message_id, match_key)
       SELECT x.message_id, x.part_index, x.workspace_id, x.carrier, x.carrier_message_id,
         x.match_key
       FROM jsonb_to_recordset($2::jsonb) AS x(message_id text, part_index int,
         workspace_id text, carrier text, carrier_message_id text, match_key text)
       WHERE true${ours('x.message_id')}
       ON CONFLICT (message_id, part_index) DO NOTHING
     ), f AS (
       UPDATE sms_whatsapp.sms_messages m
       SET status = x.status, status_at = x.at, last_error_code = x.code,
         last_error_description = x.description, last_error_carrier_code = x.carrier_code,
         last_error_at = x.at, text = coalesce(m.redacted_text, m.text), redacted_text = NULL
       FROM jsonb_to_recordset($3::jsonb) AS x(id text, status text, code text,
         description text, carrier_code text, at timestamptz)
       WHERE m.id = x.id AND m.status = 'accepted'${ours('x.id')}
     ), ${eventInserts('$4', '$5', fenced ? '(SELECT key FROM done)' : undefined)}
     ${fenced ? 'SELECT id::text AS id FROM done' : 'SELECT 1'}`;
}

const RECORD_SQL = recordSql(false);
const RECORD_COMPLETING_SQL = recordSql(true);

function recordParams(
  sent: SentRecord[],
  failed: FailedRecord[],
  events: SmsEventRecord[],
): unknown[] {
  const [timeline, outbox] = eventRows(events);
  return [
    JSON.stringify(
      sent.map((s) => ({ id: s.id, sent_at: s.sentAt, carrier: s.carrier, parts: s.parts.length })),
    ),
    JSON.stringify(
      sent.flatMap((s) =>
        s.parts.map((part) => ({
          message_id: s.id,
          part_index: part.index,
          workspace_id: s.workspaceId,
          carrier: s.carrier,
          carrier_message_id: part.carrierMessageId,
          match_key: part.key,
        })),
      ),
    ),
    JSON.stringify(failed),
    timeline,
    outbox,
  ];
}
