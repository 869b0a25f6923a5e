import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeRelay } from '@switchboard/background';
import type { SmsTag } from '@switchboard/contracts';
import { inPgTransaction, pgPoolOf, rowsOf } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { eventInserts, eventRows, smsEvent, smsSubjectOf } from '../messages';

/** Messages expired per transaction. */
const BATCH = 500;

interface ExpiredRow {
  id: string;
  workspace_id: string;
  from_address: string;
  to_address: string;
  carrier: string | null;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}

/**
 * Messages handed to a carrier whose final receipt never came: past
 * `SMS_RECEIPT_TIMEOUT_SECONDS` they become `expired` (the SDK: "reached its validity limit
 * without a final receipt"), `last_error.code` `unknown`, with `sms.expired`, instead of staying
 * `sent` for ever. Several sweepers (one per replica) take disjoint rows; a receipt that comes
 * later no longer moves the message (only `sent` messages settle).
 */
@Injectable()
export class ReceiptTimeouts extends PeriodicJob {
  protected readonly everyMs: number;
  private readonly pool: Pool;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
  ) {
    super();
    this.pool = pgPoolOf(dataSource);
    // A quarter of the time-out, between a second and a minute: late by at most that.
    this.everyMs = Math.min(
      60_000,
      Math.max(1000, (config.SMS_RECEIPT_TIMEOUT_SECONDS * 1000) / 4),
    );
  }

  protected async work(): Promise<number> {
    let expired = 0;
    for (;;) {
      const done = await this.expireSome();
      expired += done;
      if (done < BATCH) return expired;
    }
  }

  private async expireSome(): Promise<number> {
    const timeout = this.config.SMS_RECEIPT_TIMEOUT_SECONDS;
    const wrote = await inPgTransaction(this.pool, async (tx) => {
      const at = new Date();
      const description = `no final receipt came from the carrier within ${timeout} s of the handover`;
      const rows = rowsOf<ExpiredRow>(
        await tx.query(
          `WITH due AS (
             SELECT id FROM sms_whatsapp.sms_messages
             WHERE status = 'sent' AND sent_at < $1::timestamptz - make_interval(secs => $2)
             ORDER BY sent_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
           UPDATE sms_whatsapp.sms_messages m
           SET status = 'expired', status_at = $1, last_error_code = 'unknown',
             last_error_description = $3, last_error_carrier_code = NULL, last_error_at = $1
           FROM due WHERE m.id = due.id AND m.status = 'sent'
           RETURNING m.id, m.workspace_id, m.from_address, m.to_address, m.carrier, m.tags,
             m.metadata`,
          [at, timeout, description],
        ),
      );
      if (rows.length === 0) return 0;
      const error = { code: 'unknown', description, carrier_error_code: null };
      const events = rows.map((row) =>
        smsEvent('sms.expired', smsSubjectOf(row), at, {
          carrier: row.carrier,
          error: { ...error, occurred_at: at.toISOString() },
        }),
      );
      await tx.query(`WITH ${eventInserts('$1', '$2')} SELECT 1`, eventRows(events));
      return rows.length;
    });
    if (wrote > 0) wakeRelay(this.pool, 'sms_whatsapp');
    return wrote;
  }
}
