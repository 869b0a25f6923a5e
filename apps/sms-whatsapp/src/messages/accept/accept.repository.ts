import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeQueue, wakeRelay } from '@switchboard/background';
import { pgPoolOf, preparedRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { MESSAGE_COLUMNS } from '../message.mapper';
import type { SmsMessageRow } from '../message.mapper';
import { stoppedAmong } from '../../preferences';
import { senderCoversSql } from '../../senders/sender-rules';
import type { ProjectedStatement } from '../../preferences';
import { eventInserts, eventRows } from '../sms-events.repository';
import type { SmsDraft } from './sms-draft';

/** The queue of messages to hand to a carrier. */
export const SUBMIT_QUEUE = 'sms.submit';

/** A sender the workspace may send from: a number it holds (any category), or a registered sender ID. */
export interface HeldSender {
  sender: string;
  kind: 'number' | 'alphanumeric';
  /** Alphanumeric only: the categories it is registered for; null = all. */
  categories: string[] | null;
}

/** Named queries of the accept path: the senders, the opt-outs in force, and the one write. */
@Injectable()
export class AcceptRepository {
  private readonly reads: SqlRunner;
  private readonly pool: Pool;
  /** Statements that commit on their own (autocommit): one round trip each. */
  readonly autocommit: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.pool = pgPoolOf(dataSource);
    // Every statement here is a module constant (or one of two), and runs for every send.
    this.reads = preparedRunner(this.pool);
    this.autocommit = this.reads;
  }

  /** Which of `senders` the workspace holds, in one query for a whole batch. */
  async heldSenders(workspaceId: string, senders: string[]): Promise<HeldSender[]> {
    return rowsOf<HeldSender>(
      await this.reads.query(
        `SELECT a.number AS sender, 'number' AS kind, NULL::text[] AS categories
         FROM sms_whatsapp.number_allocations a
         JOIN sms_whatsapp.numbers n ON n.number = a.number AND n.country_code = a.country_code
         WHERE a.workspace_id = $1 AND a.status = 'active' AND a.released_at IS NULL
           AND 'sms' = ANY (n.capabilities) AND a.number = ANY ($2::text[])
         UNION ALL
         SELECT sender, 'alphanumeric', categories FROM sms_whatsapp.sms_senders
         WHERE workspace_id = $1 AND sender = ANY ($2::text[])`,
        [workspaceId, senders],
      ),
    );
  }

  /** The message a system send with `key` stored, if any (the unique index on keyed rows). */
  async byKey(workspaceId: string, key: string): Promise<SmsMessageRow | undefined> {
    const rows = rowsOf<SmsMessageRow>(
      await this.reads.query(
        `SELECT ${MESSAGE_COLUMNS} FROM sms_whatsapp.sms_messages
         WHERE workspace_id = $1 AND system_send_key = $2`,
        [workspaceId, key],
      ),
    );
    return rows[0];
  }

  /**
   * The sender a template send goes from: the workspace's earliest active SMS number, else a
   * registered sender ID covering the category (one registered for it by name first); undefined
   * when it has none.
   */
  async defaultSender(workspaceId: string, category: string): Promise<string | undefined> {
    const rows = rowsOf<{ sender: string }>(
      await this.reads.query(
        `(SELECT a.number AS sender, 0 AS rank, a.allocated_at AS since
          FROM sms_whatsapp.number_allocations a
          JOIN sms_whatsapp.numbers n ON n.number = a.number AND n.country_code = a.country_code
          WHERE a.workspace_id = $1 AND a.status = 'active' AND a.released_at IS NULL
            AND 'sms' = ANY (n.capabilities))
         UNION ALL
         (SELECT sender, CASE WHEN $2 = ANY (categories) THEN 1 ELSE 2 END, created_at
          FROM sms_whatsapp.sms_senders
          WHERE workspace_id = $1 AND ${senderCoversSql('categories', '$2')})
         ORDER BY rank, since LIMIT 1`,
        [workspaceId, category],
      ),
    );
    return rows[0]?.sender;
  }

  /**
   * Which of `sends` may not go, by index: an opt-out episode in force for the (from, to) pair
   * (`suppression`), or, with `preferences`, the recipient's statements in the preference
   * projection (ADR 14: any revocation that applies, channel-wide or for `from`; `preference`).
   * ONE statement for a whole batch, of one workspace or several.
   */
  async optOutsAmong(
    executor: SqlRunner,
    sends: ReadonlyArray<{ workspaceId: string; from: string; to: string; category: string }>,
    preferences: boolean,
  ): Promise<Map<number, 'suppression' | 'preference'>> {
    const found = new Map<number, 'suppression' | 'preference'>();
    if (sends.length === 0) return found;
    const statements = `UNION ALL
       SELECT 'preference', p.workspace_id, s.originator, p.handle, p.sender_scope, p.status,
         p.coverage
       FROM sms_whatsapp.preference_states p
       JOIN (SELECT DISTINCT * FROM s) AS s ON p.workspace_id = s.workspace_id
         AND p.channel = 'sms' AND p.handle = s.destination AND p.sender_scope IN ('', s.originator)
       WHERE p.status <> 'deleted'`;
    const rows = rowsOf<
      ProjectedStatement & { kind: 'suppression' | 'preference'; originator: string }
    >(
      await executor.query(
        `WITH s AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           AS s (workspace_id, originator, destination))
         SELECT DISTINCT 'suppression' AS kind, workspace_id, originator, destination AS handle,
           NULL AS sender_scope, NULL AS status, NULL AS coverage
         FROM sms_whatsapp.sms_suppressions
         WHERE ended_at IS NULL AND (workspace_id, originator, destination) IN (SELECT * FROM s)
         ${preferences ? statements : ''}`,
        [
          sends.map((send) => send.workspaceId),
          sends.map((send) => send.from),
          sends.map((send) => send.to),
        ],
      ),
    );
    const suppressed = new Set(
      rows
        .filter((row) => row.kind === 'suppression')
        .map((row) => `${row.workspace_id} ${row.originator} ${row.handle}`),
    );
    const stopped = stoppedAmong(
      rows.filter((row) => row.kind === 'preference').map((row) => ({ ...row, channel: 'sms' })),
      sends.map((send) => ({
        workspaceId: send.workspaceId,
        channel: 'sms',
        handle: send.to,
        senderScope: send.from,
        transactional: send.category !== 'marketing',
      })),
    );
    sends.forEach((send, index) => {
      if (suppressed.has(`${send.workspaceId} ${send.from} ${send.to}`))
        found.set(index, 'suppression');
      else if (stopped.has(index)) found.set(index, 'preference');
    });
    return found;
  }

  /**
   * Messages, their events (timeline and outbox) and one submit job per message not rejected,
   * in ONE statement whatever the number, in the caller's transaction.
   */
  async insert(executor: SqlRunner, drafts: SmsDraft[]): Promise<void> {
    if (drafts.length === 0) return;
    const [timeline, outbox] = eventRows(drafts.flatMap((draft) => draft.events));
    await executor.query(
      `WITH m AS (
         INSERT INTO sms_whatsapp.sms_messages (id, workspace_id, direction, status, from_address,
           to_address, country_code, category, text, segments, encoding, characters,
           smart_encoding, tags, metadata, template_id, template_language, carrier,
           last_error_code, last_error_description, last_error_at, idempotency_key,
           system_send_key, created_at, status_at, redacted_text)
         SELECT id, workspace_id, direction, status, from_address, to_address, country_code,
           category, text, segments, encoding, characters, smart_encoding, tags, metadata,
           template_id, template_language, carrier, last_error_code, last_error_description,
           last_error_at, idempotency_key, system_send_key, created_at, status_at, redacted_text
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, direction text,
           status text, from_address text, to_address text, country_code text, category text,
           text text, segments int, encoding text, characters int, smart_encoding boolean,
           tags jsonb, metadata jsonb, template_id text, template_language text, carrier text,
           last_error_code text, last_error_description text, last_error_at timestamptz,
           idempotency_key text, system_send_key text, created_at timestamptz,
           status_at timestamptz, redacted_text text)
       ), ${eventInserts('$2', '$3')}, j AS (
         INSERT INTO sms_whatsapp.jobs (queue, payload)
         SELECT $4, jsonb_strip_nulls(jsonb_build_object('message_id', id,
           'keyword_reply', CASE WHEN reply THEN true END, 'carrier', carrier))
         FROM unnest($5::text[], $6::boolean[], $7::text[]) AS t(id, reply, carrier)
       )
       SELECT 1`,
      [
        JSON.stringify(drafts.map((draft) => draft.row)),
        timeline,
        outbox,
        SUBMIT_QUEUE,
        drafts.filter((draft) => draft.queued).map((draft) => draft.row.id),
        drafts.filter((draft) => draft.queued).map((draft) => draft.keywordReply === true),
        drafts.filter((draft) => draft.queued).map((draft) => draft.viaCarrier ?? null),
      ],
    );
  }

  /** After the commit: the relay for the events, the submit workers when jobs were queued. */
  wakeAll(queued: boolean): void {
    wakeRelay(this.pool, 'sms_whatsapp');
    if (queued) wakeQueue(this.pool, 'sms_whatsapp', SUBMIT_QUEUE);
  }
}
