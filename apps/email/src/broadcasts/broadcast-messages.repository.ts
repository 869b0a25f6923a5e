import { Injectable } from '@nestjs/common';
import { outboxChannel } from '@switchboard/background';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { PROCESS_QUEUE } from '../messages';
import { senderDomainOf } from '../messages/accept/message-draft';
import type { BroadcastRow } from './broadcast.mapper';

/** One contact's message of a broadcast, rendered: ids made by the caller. */
export interface BroadcastMessageDraft {
  id: string;
  recipient_id: string;
  event_id: string;
  contact_id: string;
  email: string;
  name: string | null;
  subject: string;
  html: string | null;
  text: string | null;
}

/** Writes and cancels a broadcast's messages, a page in one statement. */
@Injectable()
export class BroadcastMessagesRepository {
  /**
   * A page of messages in ONE statement: the messages (one per contact; a (broadcast, contact)
   * already written is skipped, never written twice), and for those written their recipient,
   * content, `email.accepted` event (timeline and outbox) and processing job, as a single send
   * writes them (`insertDrafts`). Answers how many were written.
   */
  async insertPage(
    runner: SqlRunner,
    broadcast: BroadcastRow,
    drafts: BroadcastMessageDraft[],
  ): Promise<number> {
    if (drafts.length === 0) return 0;
    const b = broadcast;
    const rows = rowsOf<{ written: number }>(
      await runner.query(
        `WITH i AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id text, recipient_id text,
             event_id text, contact_id text, email text, name text, subject text, html text,
             text text)
         ), m AS (
           INSERT INTO email.messages (id, workspace_id, from_email, from_name, sender_domain,
             onboarding, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category,
             status, tags, metadata, parameters, headers, attachments, track_opens, track_clicks,
             ip_pool_id, accepted_count, created_at, template_id, template_version_id,
             broadcast_id, contact_id)
           SELECT i.id, $2, $3, $4, $5, false,
             jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('email', i.email, 'name', i.name))),
             '[]', '[]', $6::jsonb, i.subject, $7, 'accepted', $8::jsonb, $9::jsonb, NULL,
             $10::jsonb, '[]', $11, $12, $13, 1, now(), $14, $15, $16, i.contact_id
           FROM i
           ON CONFLICT (broadcast_id, contact_id) WHERE broadcast_id IS NOT NULL DO NOTHING
           RETURNING id
         ), w AS (SELECT i.* FROM i JOIN m ON m.id = i.id),
         r AS (
           INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, name,
             allowed, status)
           SELECT recipient_id, id, $2, 0, 'to', email, name, true, 'accepted' FROM w
         ), c AS (
           INSERT INTO email.contents (message_id, workspace_id, html, text, attachments)
           SELECT id, $2, html, text, '[]' FROM w
         ), e AS (
           INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at)
           SELECT event_id, id, $2, recipient_id, 'email.accepted', now() FROM w
         ), o AS (
           INSERT INTO email.outbox (id, type, workspace_id, payload)
           SELECT event_id, 'email.accepted', $2, jsonb_build_object('type', 'email.accepted',
             'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'data', jsonb_build_object('email_id', id, 'recipient_id', recipient_id,
               'workspace_id', $2, 'recipient', email, 'recipient_role', 'to',
               'tags', CASE WHEN jsonb_array_length($8::jsonb) > 0 THEN $8::jsonb END,
               'metadata', $9::jsonb, 'broadcast_id', $16::text))
           FROM w
         ), j AS (
           INSERT INTO email.jobs (queue, payload, run_at)
           SELECT $17, jsonb_build_object('message_id', id), now() FROM w
         )
         SELECT count(*)::int AS written, pg_notify($18, '') FROM w`,
        [
          JSON.stringify(drafts),
          b.workspace_id,
          b.from_email,
          b.from_name,
          senderDomainOf(b.from_email ?? ''),
          JSON.stringify(b.reply_to),
          b.category,
          JSON.stringify(b.tags),
          b.metadata === null ? null : JSON.stringify(b.metadata),
          JSON.stringify(b.headers),
          b.track_opens,
          b.track_clicks,
          b.ip_pool_id,
          b.template_id,
          b.template_version_id,
          b.id,
          PROCESS_QUEUE,
          outboxChannel('email'),
        ],
      ),
    );
    return rows[0]?.written ?? 0;
  }

  /**
   * Cancels the broadcast's messages not yet processed (processing locks a message, so one being
   * processed is waited for and then left alone); answers their ids.
   */
  async cancelUnprocessed(
    runner: SqlRunner,
    workspaceId: string,
    broadcastId: string,
  ): Promise<string[]> {
    const rows = rowsOf<{ id: string }>(
      await runner.query(
        `UPDATE email.messages SET status = 'canceled', canceled_at = now()
         WHERE broadcast_id = $2 AND workspace_id = $1 AND processed_at IS NULL
           AND canceled_at IS NULL
         RETURNING id`,
        [workspaceId, broadcastId],
      ),
    );
    return rows.map((row) => row.id);
  }

  /** Whether any message of the broadcast still waits for processing. */
  async unprocessed(runner: SqlRunner, workspaceId: string, broadcastId: string) {
    const rows = rowsOf(
      await runner.query(
        `SELECT 1 FROM email.messages WHERE broadcast_id = $2 AND workspace_id = $1
           AND processed_at IS NULL AND canceled_at IS NULL LIMIT 1`,
        [workspaceId, broadcastId],
      ),
    );
    return rows.length > 0;
  }
}
