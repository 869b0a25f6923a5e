import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { SmsTag } from '@switchboard/contracts';
import { eventInserts, eventRows } from '../messages';
import type { SmsEventRecord } from '../messages';

/** A message the receipt time-out expired, as its `sms.expired` event needs it. */
export interface UnreceiptedRow {
  id: string;
  workspace_id: string;
  from_address: string;
  to_address: string;
  carrier: string | null;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}

/** The queue of recorded receipts to apply. */
export const RECEIPTS_QUEUE = 'sms.receipt';

/** A receipt as the inbox stores it; `match_key` is `carrierMessageIdKey` of the id. */
export interface StoredReceipt {
  carrier: string;
  carrier_message_id: string;
  match_key: string;
  stat: string;
  err: string | null;
  done_at: Date | null;
}

/** A receipt of the inbox matched to the part it reports on (none: `message_id` null). */
export interface MatchedReceipt {
  receipt_id: string;
  received_at: Date;
  stat: string;
  err: string | null;
  done_at: Date | null;
  carrier: string;
  message_id: string | null;
  part_index: number | null;
}

/** A message a receipt touched, with the state of every one of its parts after the update. */
export interface ReceiptTarget {
  id: string;
  workspace_id: string;
  status: string;
  from_address: string;
  to_address: string;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
  carrier: string | null;
  sent_at: Date | null;
  parts: number;
  part_stats: Array<{ stat: string | null; err: string | null; final: boolean }>;
}

export interface FinalUpdate {
  id: string;
  status: string;
  at: Date;
  code: string | null;
  description: string | null;
  carrier_code: string | null;
}

/** Named queries of receipts: the inbox write (before the carrier is answered) and the apply. */
@Injectable()
export class ReceiptsRepository {
  /** Receipts and one job each in ONE statement (autocommit): durable once it resolves. */
  async store(runner: SqlRunner, receipts: StoredReceipt[]): Promise<void> {
    await runner.query(
      `WITH r AS (
         INSERT INTO sms_whatsapp.sms_receipts (carrier, carrier_message_id, match_key, stat, err,
           done_at)
         SELECT carrier, carrier_message_id, match_key, stat, err, done_at
         FROM jsonb_to_recordset($1::jsonb) AS x(carrier text, carrier_message_id text,
           match_key text, stat text, err text, done_at timestamptz)
         RETURNING id
       )
       INSERT INTO sms_whatsapp.jobs (queue, payload)
       SELECT $2, jsonb_build_object('receipt_id', id::text) FROM r`,
      [JSON.stringify(receipts), RECEIPTS_QUEUE],
    );
  }

  /**
   * Each receipt with the part it reports on, in one query: same carrier and id key; the newest
   * message first (a carrier may reuse ids over time).
   */
  async match(runner: SqlRunner, receiptIds: string[]): Promise<MatchedReceipt[]> {
    return rowsOf<MatchedReceipt>(
      await runner.query(
        `SELECT DISTINCT ON (r.id) r.id::text AS receipt_id, r.received_at, r.stat, r.err,
           r.done_at, r.carrier, p.message_id, p.part_index
         FROM sms_whatsapp.sms_receipts r
         LEFT JOIN sms_whatsapp.sms_message_parts p
           ON p.carrier = r.carrier AND p.match_key = r.match_key
         WHERE r.id = ANY ($1::bigint[])
         ORDER BY r.id, p.message_id DESC NULLS LAST`,
        [receiptIds],
      ),
    );
  }

  /**
   * Sets each matched part's receipt (a final one is never replaced) and answers the messages
   * touched with all their parts. The messages are locked first (in id order), so two batches
   * settling parts of one message take turns and the second sees the first's parts.
   */
  async applyToParts(
    runner: SqlRunner,
    updates: Array<{
      message_id: string;
      part_index: number;
      stat: string;
      err: string | null;
      final: boolean;
      at: Date;
    }>,
  ): Promise<ReceiptTarget[]> {
    const ids = [...new Set(updates.map((update) => update.message_id))];
    await runner.query(
      `SELECT id FROM sms_whatsapp.sms_messages WHERE id = ANY ($1::text[]) ORDER BY id FOR UPDATE`,
      [ids],
    );
    await runner.query(
      `UPDATE sms_whatsapp.sms_message_parts p
       SET stat = x.stat, err = x.err, final = x.final, receipt_at = x.at
       FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, part_index int, stat text,
         err text, final boolean, at timestamptz)
       WHERE p.message_id = x.message_id AND p.part_index = x.part_index AND NOT p.final`,
      [JSON.stringify(updates)],
    );
    return rowsOf<ReceiptTarget>(
      await runner.query(
        `SELECT m.id, m.workspace_id, m.status, m.from_address, m.to_address, m.tags, m.metadata,
           m.carrier, m.sent_at, coalesce(m.parts, 0) AS parts,
           (SELECT jsonb_agg(jsonb_build_object('stat', p.stat, 'err', p.err, 'final', p.final)
                   ORDER BY p.part_index)
            FROM sms_whatsapp.sms_message_parts p WHERE p.message_id = m.id) AS part_stats
         FROM sms_whatsapp.sms_messages m
         WHERE m.id = ANY ($1::text[])`,
        [ids],
      ),
    );
  }

  /** Final statuses and the events, in one statement; a message leaves only `sent`. */
  async finish(
    runner: SqlRunner,
    finals: FinalUpdate[],
    events: SmsEventRecord[],
    receiptIds: string[],
  ): Promise<void> {
    const [timeline, outbox] = eventRows(events);
    await runner.query(
      `WITH f AS (
         UPDATE sms_whatsapp.sms_messages m
         SET status = x.status, status_at = x.at,
           delivered_at = CASE WHEN x.status = 'delivered' THEN x.at ELSE m.delivered_at END,
           last_error_code = x.code, last_error_description = x.description,
           last_error_carrier_code = x.carrier_code,
           last_error_at = CASE WHEN x.code IS NULL THEN NULL ELSE x.at END
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, status text, at timestamptz, code text,
           description text, carrier_code text)
         WHERE m.id = x.id AND m.status = 'sent'
       ), d AS (
         DELETE FROM sms_whatsapp.sms_receipts WHERE id = ANY ($4::bigint[])
       ), ${eventInserts('$2', '$3')}
       SELECT 1`,
      [JSON.stringify(finals), timeline, outbox, receiptIds],
    );
  }

  /**
   * Messages sent before `olderThan` and still without their final receipts, at most `limit`,
   * locked with their parts (skipping rows another sweeper holds): `finish` settles them.
   */
  async dueUnreceipted(
    runner: SqlRunner,
    olderThan: Date,
    limit: number,
  ): Promise<ReceiptTarget[]> {
    return rowsOf<ReceiptTarget>(
      await runner.query(
        `WITH due AS (
           SELECT id FROM sms_whatsapp.sms_messages
           WHERE status = 'sent' AND sent_at < $1
           ORDER BY sent_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         SELECT m.id, m.workspace_id, m.status, m.from_address, m.to_address, m.tags, m.metadata,
           m.carrier, m.sent_at, coalesce(m.parts, 0) AS parts,
           (SELECT jsonb_agg(jsonb_build_object('stat', p.stat, 'err', p.err, 'final', p.final)
                   ORDER BY p.part_index)
            FROM sms_whatsapp.sms_message_parts p WHERE p.message_id = m.id) AS part_stats
         FROM due JOIN sms_whatsapp.sms_messages m ON m.id = due.id`,
        [olderThan, limit],
      ),
    );
  }

  /** Events on the messages' timelines and in the outbox, in one statement. */
  async writeEvents(runner: SqlRunner, events: SmsEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    await runner.query(`WITH ${eventInserts('$1', '$2')} SELECT 1`, eventRows(events));
  }
}
