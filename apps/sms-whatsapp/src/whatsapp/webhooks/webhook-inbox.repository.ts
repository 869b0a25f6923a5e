import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

/** The queue of recorded webhooks to apply: one job per inbox row. */
export const WEBHOOK_INBOX_QUEUE = 'whatsapp.webhook';

export interface InboxRow {
  id: string;
  body: string;
  received_at: Date;
}

/** An inbox row done with: `note` says why nothing (or not all) of it applied, null when all did. */
export interface ProcessedRow {
  id: string;
  note: string | null;
}

/** Named queries of the webhook inbox: the write before Meta's 200, then the processing. */
@Injectable()
export class WebhookInboxRepository {
  /** Webhooks and one job each in ONE statement (autocommit): durable once it resolves. */
  async store(runner: SqlRunner, bodies: string[]): Promise<void> {
    await runner.query(
      `WITH r AS (
         INSERT INTO sms_whatsapp.whatsapp_webhook_inbox (body)
         SELECT unnest($1::text[])
         RETURNING id
       )
       INSERT INTO sms_whatsapp.jobs (queue, payload)
       SELECT $2, jsonb_build_object('inbox_id', id::text) FROM r`,
      [bodies, WEBHOOK_INBOX_QUEUE],
    );
  }

  /** The rows not processed yet, locked, oldest first (the order Meta sent them in). */
  async pending(runner: SqlRunner, ids: string[]): Promise<InboxRow[]> {
    return rowsOf<InboxRow>(
      await runner.query(
        `SELECT id::text AS id, body, received_at FROM sms_whatsapp.whatsapp_webhook_inbox
         WHERE id = ANY ($1::bigint[]) AND processed_at IS NULL
         ORDER BY id FOR UPDATE`,
        [ids],
      ),
    );
  }

  async markProcessed(runner: SqlRunner, rows: ProcessedRow[]): Promise<void> {
    if (rows.length === 0) return;
    await runner.query(
      `UPDATE sms_whatsapp.whatsapp_webhook_inbox i
       SET processed_at = clock_timestamp(), error = x.note
       FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, note text)
       WHERE i.id = x.id AND i.processed_at IS NULL`,
      [JSON.stringify(rows)],
    );
  }

  /** Deletes up to `limit` rows processed before `before`; answers how many. */
  async purgeProcessed(runner: SqlRunner, before: Date, limit: number): Promise<number> {
    const [row] = rowsOf<{ count: number }>(
      await runner.query(
        `WITH d AS (
           DELETE FROM sms_whatsapp.whatsapp_webhook_inbox
           WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_webhook_inbox
                        WHERE processed_at < $1 LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS count FROM d`,
        [before, limit],
      ),
    );
    return row.count;
  }
}
