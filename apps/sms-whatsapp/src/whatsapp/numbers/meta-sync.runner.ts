import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inPgTransaction, pgPoolOf } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { accountReadingOf } from '../business-accounts/business-account.row';
import { BusinessAccountsRepository } from '../business-accounts/business-accounts.repository';
import { WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type { WhatsAppGraph } from '../graph/whatsapp-graph';
import { changeEvents, readingOf } from './number-reading';
import { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';

/** Rows read per pass; a pass continues until nothing is stale. */
const BATCH = 50;
/** The longest wait between passes, whatever the interval. */
const MAX_TICK_MS = 60_000;

/**
 * Re-reads connected numbers and business accounts from Meta once their last reading is older
 * than `WHATSAPP_META_SYNC_SECONDS` (the SDK's "roughly hourly"): the reading moves
 * `meta_synced_at`, and every move of a number's status, quality rating or messaging limit is
 * recorded as a number event in the same transaction. Two processes re-reading the same number
 * both ask Meta (a read), but only the first stores its reading and events. A Graph failure
 * leaves the row as it was, to be retried on the next pass.
 */
@Injectable()
export class MetaSyncRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MetaSyncRunner.name);
  private readonly pool: Pool;
  private timer?: NodeJS.Timeout;
  private pass?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
    private readonly numbers: WhatsAppNumbersRepository,
    private readonly accounts: BusinessAccountsRepository,
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    if (!this.config.WHATSAPP_ACCESS_TOKEN) return;
    const tickMs = Math.min(this.config.WHATSAPP_META_SYNC_SECONDS * 1000, MAX_TICK_MS);
    this.timer = setInterval(() => {
      this.pass ??= this.syncStale()
        .then(() => undefined)
        .catch((err: unknown) => this.logger.warn(`Meta re-read failed: ${String(err)}`))
        .finally(() => (this.pass = undefined));
    }, tickMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pass;
  }

  /** One pass over everything stale; answers how many rows were re-read. */
  async syncStale(): Promise<number> {
    const olderThanMs = this.config.WHATSAPP_META_SYNC_SECONDS * 1000;
    let done = 0;
    for (;;) {
      const before = done;
      const numbers = await this.numbers.listStale(olderThanMs, BATCH);
      for (const number of numbers) {
        if (this.stopped) return done;
        const phone = await this.read(() => this.graph.getPhoneNumber(number.phone_number_id));
        if (!phone) continue;
        const reading = readingOf(phone);
        await inPgTransaction(this.pool, async (runner) => {
          const stored = await this.numbers.applyReading(runner, number.id, reading, {
            seenSyncedAt: number.meta_synced_at,
          });
          if (stored) await this.numbers.insertEvents(runner, changeEvents(number, reading));
        });
        done++;
      }
      const accounts = await this.accounts.listStale(olderThanMs, BATCH);
      for (const account of accounts) {
        if (this.stopped) return done;
        const read = await this.read(() => this.graph.getBusinessAccount(account.waba));
        if (!read) continue;
        await this.accounts.applyReading(
          account.id,
          accountReadingOf(read),
          account.meta_synced_at,
        );
        done++;
      }
      // A row Meta failed to answer for stays stale (first in line): leave it to the next pass.
      if ((numbers.length < BATCH && accounts.length < BATCH) || done === before) return done;
    }
  }

  private async read<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      this.logger.warn(`Meta re-read skipped: ${(err as Error).message}`);
      return undefined;
    }
  }
}
