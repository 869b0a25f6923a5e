import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeQueue, wakeRelay } from '@switchboard/background';
import { pgPoolOf, poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { eventInserts, eventRows } from '../whatsapp-events';
import type { WhatsAppDraft } from './whatsapp-draft';

/** The queue of accepted WhatsApp messages to hand to Meta. */
export const DISPATCH_QUEUE = 'whatsapp.dispatch';

/** A message a send quotes, as the reply rules read it. */
export interface ReplyTarget {
  id: string;
  number_id: string;
  contact_phone: string | null;
  contact_bsuid: string | null;
  provider_message_id: string | null;
  created_at: Date;
}

/** Named queries of the accept path: the service window, the quoted message, the one write. */
@Injectable()
export class WhatsAppAcceptRepository {
  /** Statements that commit on their own (autocommit): one round trip each. */
  readonly autocommit: SqlRunner;
  private readonly pool: Pool;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.autocommit = poolRunner(dataSource);
    this.pool = pgPoolOf(dataSource);
  }

  /** Whether the contact (by any of `contacts`) wrote to the number within the last 24 hours. */
  async windowOpen(numberId: string, contacts: string[]): Promise<boolean> {
    const rows = rowsOf<{ open: boolean }>(
      await this.autocommit.query(
        `SELECT EXISTS (SELECT 1 FROM sms_whatsapp.whatsapp_service_windows
           WHERE number_id = $1 AND contact = ANY ($2::text[])
             AND last_inbound_at > clock_timestamp() - interval '24 hours') AS open`,
        [numberId, contacts],
      ),
    );
    return rows[0]?.open === true;
  }

  async replyTarget(workspaceId: string, id: string): Promise<ReplyTarget | undefined> {
    const rows = rowsOf<ReplyTarget>(
      await this.autocommit.query(
        `SELECT id, number_id, contact_phone, contact_bsuid, provider_message_id, created_at
         FROM sms_whatsapp.whatsapp_messages WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Messages, their events (timeline and outbox) and a dispatch job for each not rejected,
   * in ONE statement whatever the number, in the caller's transaction (or autocommit).
   */
  async insert(executor: SqlRunner, drafts: WhatsAppDraft[]): Promise<void> {
    if (drafts.length === 0) return;
    const [timeline, outbox] = eventRows(drafts.flatMap((draft) => draft.events));
    await executor.query(
      `WITH m AS (
         INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status,
           number_id, business_phone, contact_phone, contact_bsuid, country_code, content_kind,
           content, category, template_id, template_version_id, template_language,
           in_reply_to_message_id, tags, metadata, idempotency_key, created_at, status_at)
         SELECT id, workspace_id, direction, status, number_id, business_phone, contact_phone,
           contact_bsuid, country_code, content_kind, content, category, template_id,
           template_version_id, template_language, in_reply_to_message_id, tags, metadata,
           idempotency_key, created_at, status_at
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, direction text,
           status text, number_id text, business_phone text, contact_phone text,
           contact_bsuid text, country_code text, content_kind text, content jsonb,
           category text, template_id text, template_version_id text, template_language text,
           in_reply_to_message_id text, tags jsonb, metadata jsonb, idempotency_key text,
           created_at timestamptz, status_at timestamptz)
       ), ${eventInserts('$2', '$3')}, j AS (
         INSERT INTO sms_whatsapp.jobs (queue, payload)
         SELECT $4, payload FROM jsonb_array_elements($5::jsonb) AS t(payload)
       )
       SELECT 1`,
      [
        JSON.stringify(drafts.map((draft) => draft.row)),
        timeline,
        outbox,
        DISPATCH_QUEUE,
        JSON.stringify(drafts.flatMap((draft) => draft.job ?? [])),
      ],
    );
  }

  /** After the commit: the relay for the events, the dispatch workers when jobs were queued. */
  wakeAll(queued = true): void {
    wakeRelay(this.pool, 'sms_whatsapp');
    if (queued) wakeQueue(this.pool, 'sms_whatsapp', DISPATCH_QUEUE);
  }
}
