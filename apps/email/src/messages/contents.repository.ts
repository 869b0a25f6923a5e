import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/**
 * The stored bodies and attachments of messages (email.contents) as a whole: which are due to
 * go, and dropping them. Dropping is written here only, whoever drops (retention, cancel, a
 * message with nobody left to send to).
 */
@Injectable()
export class ContentsRepository {
  /** Outside a transaction: the pg Pool directly. */
  private readonly pool: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.pool = poolRunner(dataSource);
  }

  /** Up to `limit` messages whose content is kept past its retention (`expires_at`). */
  async expired(limit: number): Promise<string[]> {
    const rows = (await this.pool.query(
      `SELECT message_id FROM email.contents WHERE expires_at < now() AND NOT purged LIMIT $1`,
      [limit],
    )) as Array<{ message_id: string }>;
    return rows.map((row) => row.message_id);
  }

  /**
   * Drops the messages' bodies and attachments and marks them purged (then `/content` answers
   * 410 or 404); the message, its recipients and events stay. Answers how many were dropped.
   */
  async purge(messageIds: string[], runner: SqlRunner = this.pool): Promise<number> {
    if (messageIds.length === 0) return 0;
    // An EntityManager answers UPDATE with [rows, count]: rowsOf reads either shape.
    const rows = rowsOf(
      await runner.query(
        `UPDATE email.contents SET html = NULL, text = NULL, attachments = '[]', purged = true
         WHERE message_id = ANY($1) RETURNING message_id`,
        [messageIds],
      ),
    );
    return rows.length;
  }
}
