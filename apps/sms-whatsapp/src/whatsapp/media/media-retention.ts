import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@switchboard/platform';
import { returnedRows } from '../inbound/returned-rows';
import { MediaRepository } from './media.repository';

/** Rows per statement: media bytes are large, so a round frees a bounded amount at a time. */
const BATCH = 200;

/**
 * Retention of inbound media and reaction logs, every ten minutes: media past its 30 days
 * loses its bytes (the row stays `expired`, so its link answers 410); reaction events go 30 days
 * after the message they belong to was created, as the SDK counts them.
 */
@Injectable()
export class InboundRetention extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(private readonly media: MediaRepository) {
    super();
  }

  protected async work(): Promise<number> {
    let done = 0;
    for (;;) {
      const expired = returnedRows<{ id: string }>(
        await this.media.runner.query(
          `UPDATE sms_whatsapp.whatsapp_media SET status = 'expired', bytes = NULL
           WHERE id IN (SELECT id FROM sms_whatsapp.whatsapp_media
                        WHERE expires_at <= clock_timestamp() AND status <> 'expired'
                        ORDER BY expires_at LIMIT ${BATCH})
           RETURNING id`,
        ),
      );
      done += expired.length;
      if (expired.length < BATCH) break;
    }
    for (;;) {
      const deleted = returnedRows<{ seq: string }>(
        await this.media.runner.query(
          `DELETE FROM sms_whatsapp.whatsapp_reaction_events
           WHERE seq IN (
             SELECT e.seq FROM sms_whatsapp.whatsapp_reaction_events e
             LEFT JOIN sms_whatsapp.whatsapp_messages m ON m.id = e.message_id
             WHERE (m.id IS NULL OR m.created_at < clock_timestamp() - interval '30 days')
               AND e.occurred_at < clock_timestamp() - interval '1 day'
             LIMIT ${BATCH * 5})
           RETURNING seq`,
        ),
      );
      done += deleted.length;
      if (deleted.length < BATCH * 5) return done;
    }
  }
}
