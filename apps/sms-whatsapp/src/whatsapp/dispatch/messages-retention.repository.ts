import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/**
 * The retention's statements, each on at most `limit` rows so one pass never holds many locks
 * or a long transaction; each commits on its own.
 */
@Injectable()
export class MessagesRetentionRepository {
  private readonly runner: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.runner = poolRunner(dataSource);
  }

  /** Clears Meta's wamid of messages created before `before`; answers how many. */
  async clearProviderIds(before: Date, limit: number): Promise<number> {
    return this.count(
      `WITH c AS (
         UPDATE sms_whatsapp.whatsapp_messages SET provider_message_id = NULL
         WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_messages
                      WHERE provider_message_id IS NOT NULL AND created_at < $1
                      LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS count FROM c`,
      [before, limit],
    );
  }

  /**
   * Deletes messages created before `before`, with their timelines, media rows, reaction logs
   * and stats dedupe keys; answers how many messages.
   */
  async deleteMessages(before: Date, limit: number): Promise<number> {
    return this.count(
      `WITH d AS (
         DELETE FROM sms_whatsapp.whatsapp_messages
         WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_messages
                      WHERE created_at < $1 LIMIT $2)
         RETURNING id
       ), e AS (
         DELETE FROM sms_whatsapp.whatsapp_message_events
         WHERE message_id IN (SELECT id FROM d)
       ), media AS (
         DELETE FROM sms_whatsapp.whatsapp_media WHERE message_id IN (SELECT id FROM d)
       ), reactions AS (
         DELETE FROM sms_whatsapp.whatsapp_reaction_events
         WHERE message_id IN (SELECT id FROM d)
       ), folded AS (
         -- The stats keep their counts; what they had counted of a deleted message can
         -- never arrive again (its events name a message that is gone).
         DELETE FROM sms_whatsapp.stats_folded_events
         WHERE message_id IN (SELECT id FROM d)
       )
       SELECT count(*)::int AS count FROM d`,
      [before, limit],
    );
  }

  /** A window closed a day ago is as good as none: its row only grows the table. */
  async deleteClosedWindows(): Promise<void> {
    await this.runner.query(
      `DELETE FROM sms_whatsapp.whatsapp_service_windows
       WHERE last_inbound_at < clock_timestamp() - interval '2 days'`,
    );
  }

  private async count(sql: string, params: unknown[]): Promise<number> {
    const [row] = rowsOf<{ count: number }>(await this.runner.query(sql, params));
    return row.count;
  }
}
