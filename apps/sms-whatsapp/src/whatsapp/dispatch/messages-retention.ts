import { Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WHATSAPP_MESSAGE_LIMITS } from '@switchboard/contracts';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

const EVERY_MS = 10 * 60_000;
/** Rows per statement, so one pass never holds many locks or a long transaction. */
const CHUNK = 5_000;

/**
 * The SDK's retention bounds for WhatsApp messages: Meta's wamid is cleared after 15 days (a
 * message can no longer be quoted, reacted to or marked read); the message, its timeline, its
 * media rows, reaction log and stats dedupe keys are deleted after 30; and service windows long
 * closed go. Runs every ten minutes in chunks; running on several replicas at once only repeats
 * work already done.
 */
@Injectable()
export class WhatsAppMessagesRetention
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger(WhatsAppMessagesRetention.name);
  private readonly runner: SqlRunner;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.runner = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running ??= this.expire()
        .then(() => undefined)
        .catch((err: Error) => this.logger.warn(`retention pass failed: ${err.message}`))
        .finally(() => (this.running = undefined));
    };
    setImmediate(tick);
    this.timer = setInterval(tick, EVERY_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: chunks until nothing is left past either bound. */
  async expire(now = new Date()): Promise<{ cleared: number; deleted: number }> {
    const day = 86_400_000;
    const providerBound = new Date(now.getTime() - WHATSAPP_MESSAGE_LIMITS.providerIdDays * day);
    const messageBound = new Date(now.getTime() - WHATSAPP_MESSAGE_LIMITS.retentionDays * day);
    let cleared = 0;
    let deleted = 0;
    for (;;) {
      const [row] = rowsOf<{ count: number }>(
        await this.runner.query(
          `WITH c AS (
             UPDATE sms_whatsapp.whatsapp_messages SET provider_message_id = NULL
             WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_messages
                          WHERE provider_message_id IS NOT NULL AND created_at < $1
                          LIMIT ${CHUNK})
             RETURNING 1)
           SELECT count(*)::int AS count FROM c`,
          [providerBound],
        ),
      );
      cleared += row.count;
      if (row.count < CHUNK) break;
    }
    for (;;) {
      const [row] = rowsOf<{ count: number }>(
        await this.runner.query(
          `WITH d AS (
             DELETE FROM sms_whatsapp.whatsapp_messages
             WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_messages
                          WHERE created_at < $1 LIMIT ${CHUNK})
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
          [messageBound],
        ),
      );
      deleted += row.count;
      if (row.count < CHUNK) break;
    }
    // A window closed a day ago is as good as none: its row only grows the table.
    await this.runner.query(
      `DELETE FROM sms_whatsapp.whatsapp_service_windows
       WHERE last_inbound_at < clock_timestamp() - interval '2 days'`,
    );
    return { cleared, deleted };
  }
}
