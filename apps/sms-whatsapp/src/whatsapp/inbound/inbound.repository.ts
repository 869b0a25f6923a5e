import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '@switchboard/persistence';
import { eventInserts, eventRows } from '../messages';
import type { WhatsAppEventRecord } from '../messages';
import { returnedRows } from './returned-rows';

/** One inbound message as the sink stores it (arrays of these become one statement). */
export interface InboundMessageRow {
  id: string;
  wamid: string;
  phone: string | null;
  bsuid: string | null;
  username: string | null;
  displayName: string | null;
  country: string;
  kind: string;
  content: unknown;
  interactiveReply: unknown;
  unsupported: unknown;
  contextWamid: string | null;
  at: Date;
}

export interface InboundMediaRow {
  id: string;
  messageId: string;
  metaMediaId: string;
  mimeType: string | null;
  sha256: string | null;
  filename: string | null;
}

export interface InboundReactionRow {
  id: string;
  /** The reaction's own wamid: Meta's retries of it are recorded once. */
  wamid: string;
  /** The wamid of the message reacted to. */
  targetWamid: string;
  emoji: string | null;
  from: Record<string, string>;
  at: Date;
}

/** Where a number's inbound change lands: its workspace, the number and our side's phone. */
export interface InboundScope {
  workspaceId: string;
  numberId: string;
  businessPhone: string | null;
}

const MEDIA_RETENTION = `interval '30 days'`;

/** The writes of one webhook change, each one statement whatever the number of messages. */
@Injectable()
export class InboundRepository {
  /** Answers the messages inserted now, with what their quoted wamid resolved to (Meta's retries insert nothing). */
  async insertMessages(
    tx: SqlRunner,
    scope: InboundScope,
    rows: InboundMessageRow[],
  ): Promise<Array<{ id: string; in_reply_to_message_id: string | null }>> {
    if (rows.length === 0) return [];
    const column = <K extends keyof InboundMessageRow>(key: K) => rows.map((row) => row[key]);
    const json = (key: 'content' | 'interactiveReply' | 'unsupported') =>
      rows.map((row) => (row[key] === null ? null : JSON.stringify(row[key])));
    return returnedRows(
      await tx.query(
        `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
           business_phone, contact_phone, contact_bsuid, contact_username, contact_display_name,
           country_code, content_kind, content, interactive_reply, unsupported,
           in_reply_to_message_id, provider_message_id, created_at, status_at)
         SELECT t.id, $1, 'inbound', 'received', $2, $3, t.phone, t.bsuid, t.username, t.display_name,
           t.country, t.kind, t.content, t.reply, t.unsupported,
           (SELECT m.id FROM sms_whatsapp.whatsapp_messages m
            WHERE m.direction IN ('outbound', 'inbound') AND m.provider_message_id = t.context
              AND m.workspace_id = $1
            ORDER BY m.direction DESC LIMIT 1),
           t.wamid, t.at, t.at
         FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::text[], $12::jsonb[], $13::jsonb[], $14::jsonb[], $15::text[],
           $16::timestamptz[])
           AS t(id, wamid, phone, bsuid, username, display_name, country, kind, content, reply,
             unsupported, context, at)
         ON CONFLICT (direction, provider_message_id) WHERE provider_message_id IS NOT NULL DO NOTHING
         RETURNING id, in_reply_to_message_id`,
        [
          scope.workspaceId,
          scope.numberId,
          scope.businessPhone,
          column('id'),
          column('wamid'),
          column('phone'),
          column('bsuid'),
          column('username'),
          column('displayName'),
          column('country'),
          column('kind'),
          json('content'),
          json('interactiveReply'),
          json('unsupported'),
          column('contextWamid'),
          column('at'),
        ],
      ),
    );
  }

  /** Pending media rows, kept 30 days from now; the fetch jobs are the caller's. */
  async insertMedia(tx: SqlRunner, workspaceId: string, rows: InboundMediaRow[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO sms_whatsapp.whatsapp_media (id, workspace_id, message_id, meta_media_id,
         mime_type, sha256, filename, status, expires_at)
       SELECT t.id, $1, t.message_id, t.meta_media_id, t.mime_type, t.sha256, t.filename,
         'pending', clock_timestamp() + ${MEDIA_RETENTION}
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         AS t(id, message_id, meta_media_id, mime_type, sha256, filename)`,
      [
        workspaceId,
        rows.map((row) => row.id),
        rows.map((row) => row.messageId),
        rows.map((row) => row.metaMediaId),
        rows.map((row) => row.mimeType),
        rows.map((row) => row.sha256),
        rows.map((row) => row.filename),
      ],
    );
  }

  /** Events on their messages' timelines and on the outbox (once per message and type). */
  async insertEvents(tx: SqlRunner, events: WhatsAppEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    await tx.query(`WITH ${eventInserts('$1', '$2')} SELECT 1`, eventRows(events));
  }

  /**
   * Opens or extends the customer-service window of each person (by phone and by BSUID, so a
   * send to either finds it); a window never moves back, whatever order Meta's webhooks arrive in.
   */
  async openWindows(
    tx: SqlRunner,
    scope: InboundScope,
    windows: Array<{ contact: string; at: Date }>,
  ): Promise<void> {
    if (windows.length === 0) return;
    await tx.query(
      `INSERT INTO sms_whatsapp.whatsapp_service_windows AS w (number_id, contact, workspace_id, last_inbound_at)
       SELECT $1, t.contact, $2, LEAST(max(t.at), clock_timestamp())
       FROM unnest($3::text[], $4::timestamptz[]) AS t(contact, at)
       GROUP BY t.contact
       ON CONFLICT (number_id, contact) DO UPDATE
         SET last_inbound_at = GREATEST(w.last_inbound_at, EXCLUDED.last_inbound_at),
             workspace_id = EXCLUDED.workspace_id`,
      [
        scope.numberId,
        scope.workspaceId,
        windows.map((window) => window.contact),
        windows.map((window) => window.at),
      ],
    );
  }

  /**
   * Logs the contact's reactions on messages this workspace can still resolve (their wamid is
   * kept 15 days; others are recorded nowhere), once each; answers the entries logged now.
   */
  async insertReactions(
    tx: SqlRunner,
    workspaceId: string,
    rows: InboundReactionRow[],
  ): Promise<Array<{ id: string; message_id: string }>> {
    if (rows.length === 0) return [];
    return returnedRows(
      await tx.query(
        `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
           status, direction, from_address, provider_message_id, occurred_at)
         SELECT t.id, $1, m.id, t.emoji, 'received', 'inbound', t.from_address, t.wamid, t.at
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[])
           AS t(id, wamid, target, emoji, from_address, at)
         JOIN LATERAL (
           SELECT id FROM sms_whatsapp.whatsapp_messages m
           WHERE m.direction IN ('outbound', 'inbound') AND m.provider_message_id = t.target
             AND m.workspace_id = $1
           ORDER BY m.direction DESC LIMIT 1
         ) m ON true
         ON CONFLICT (direction, provider_message_id) WHERE provider_message_id IS NOT NULL DO NOTHING
         RETURNING id, message_id`,
        [
          workspaceId,
          rows.map((row) => row.id),
          rows.map((row) => row.wamid),
          rows.map((row) => row.targetWamid),
          rows.map((row) => row.emoji),
          rows.map((row) => JSON.stringify(row.from)),
          rows.map((row) => row.at),
        ],
      ),
    );
  }

  /** Which of `wamids` are logged already (a reaction Meta delivered again). */
  async loggedReactions(tx: SqlRunner, wamids: string[]): Promise<Set<string>> {
    if (wamids.length === 0) return new Set();
    const rows = returnedRows<{ provider_message_id: string }>(
      await tx.query(
        `SELECT provider_message_id FROM sms_whatsapp.whatsapp_reaction_events
         WHERE direction = 'inbound' AND provider_message_id = ANY ($1::text[])`,
        [wamids],
      ),
    );
    return new Set(rows.map((row) => row.provider_message_id));
  }

  /**
   * Folds the contact's newest logged reaction into each message's `inbound_reaction` (NULL
   * after a removal). Reading the newest from the log makes the order webhooks arrive in moot.
   */
  async foldInboundReactions(tx: SqlRunner, workspaceId: string, messageIds: string[]) {
    if (messageIds.length === 0) return;
    await tx.query(
      `UPDATE sms_whatsapp.whatsapp_messages m
       SET inbound_reaction = CASE WHEN latest.emoji IS NULL THEN NULL
         ELSE jsonb_build_object('emoji', latest.emoji, 'from', latest.from_address) END
       FROM (
         SELECT DISTINCT ON (message_id) message_id, emoji, from_address
         FROM sms_whatsapp.whatsapp_reaction_events
         WHERE workspace_id = $1 AND message_id = ANY ($2::text[]) AND direction = 'inbound'
         ORDER BY message_id, occurred_at DESC, seq DESC
       ) latest
       WHERE m.workspace_id = $1 AND m.id = latest.message_id`,
      [workspaceId, messageIds],
    );
  }
}
