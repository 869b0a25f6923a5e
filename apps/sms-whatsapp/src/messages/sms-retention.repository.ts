import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/**
 * The SMS retention's statements, each on at most `limit` rows so one pass never holds many locks
 * or a long transaction; each commits on its own.
 */
@Injectable()
export class SmsRetentionRepository {
  private readonly runner: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.runner = poolRunner(dataSource);
  }

  /**
   * Deletes messages created before `before`, with their timelines, parts and stats dedupe keys;
   * answers how many messages.
   */
  async deleteMessages(before: Date, limit: number): Promise<number> {
    return this.count(
      `WITH d AS (
         DELETE FROM sms_whatsapp.sms_messages
         WHERE id IN (SELECT id FROM sms_whatsapp.sms_messages
                      WHERE created_at < $1 LIMIT $2)
         RETURNING id, workspace_id
       ), e AS (
         -- By workspace and message: the timeline's index leads with the workspace.
         DELETE FROM sms_whatsapp.sms_message_events e USING d
         WHERE e.workspace_id = d.workspace_id AND e.message_id = d.id
       ), parts AS (
         DELETE FROM sms_whatsapp.sms_message_parts WHERE message_id IN (SELECT id FROM d)
       ), folded AS (
         -- The stats keep their counts; what they had counted of a deleted message can never
         -- arrive again (its events name a message that is gone).
         DELETE FROM sms_whatsapp.stats_folded_events WHERE message_id IN (SELECT id FROM d)
       )
       SELECT count(*)::int AS count FROM d`,
      [before, limit],
    );
  }

  /** Inbound messages to numbers nobody held, kept for the operator as long as messages are. */
  deleteUnroutable(before: Date, limit: number): Promise<number> {
    return this.deleteReceivedBefore('sms_whatsapp.sms_unroutable_inbound', before, limit);
  }

  /** Parts of long inbound messages received before `before` whose message never completed. */
  deleteStaleParts(before: Date, limit: number): Promise<number> {
    return this.deleteReceivedBefore('sms_whatsapp.sms_inbound_parts', before, limit);
  }

  /** At most `limit` rows of `table` received before `before`; answers how many went. */
  private deleteReceivedBefore(table: string, before: Date, limit: number): Promise<number> {
    return this.count(
      `WITH d AS (
         DELETE FROM ${table}
         WHERE ctid IN (SELECT ctid FROM ${table} WHERE received_at < $1 LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS count FROM d`,
      [before, limit],
    );
  }

  private async count(sql: string, params: unknown[]): Promise<number> {
    const [row] = rowsOf<{ count: number }>(await this.runner.query(sql, params));
    return row.count;
  }
}
