import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeRelay } from '@switchboard/background';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { finalEvent, finalOf } from './message-finals';
import { ReceiptsRepository } from './receipts.repository';

/** Messages expired per transaction. */
const BATCH = 500;

/**
 * Messages handed to a carrier whose final receipt never came: past
 * `SMS_RECEIPT_TIMEOUT_SECONDS` they become `expired` (the SDK: "reached its validity limit
 * without a final receipt"), `last_error.code` `unknown`, with `sms.expired`, instead of staying
 * `sent` for ever; one whose other part did get a failing receipt takes that failure (`failed`
 * with the carrier's code). Several sweepers (one per replica) take disjoint rows; a receipt that comes
 * later no longer moves the message (only `sent` messages settle).
 */
@Injectable()
export class ReceiptTimeouts extends PeriodicJob {
  protected readonly everyMs: number;
  private readonly pool: Pool;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly receipts: ReceiptsRepository,
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
      const olderThan = new Date(at.getTime() - timeout * 1000);
      const rows = await this.receipts.dueUnreceipted(tx, olderThan, BATCH);
      const settled = rows.flatMap((row) => {
        const final = finalOf(row, at, { description });
        return final ? [{ row, final }] : [];
      });
      await this.receipts.finish(
        tx,
        settled.map(({ final }) => final),
        settled.map(({ row, final }) => finalEvent(row, final)),
        [],
      );
      return rows.length;
    });
    if (wrote > 0) wakeRelay(this.pool, 'sms_whatsapp');
    return wrote;
  }
}
