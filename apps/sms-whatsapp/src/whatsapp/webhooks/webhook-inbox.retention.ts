import { Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { WebhookInboxRepository } from './webhook-inbox.repository';

const EVERY_MS = 10 * 60_000;
/**
 * Processed webhooks are kept a week: long enough to look into what Meta sent (Meta itself gives
 * up retrying after about a week), well inside the 15 days its wamids may be kept.
 */
export const INBOX_KEPT_MS = 7 * 86_400_000;
const CHUNK = 5_000;

/** Deletes processed inbox rows past INBOX_KEPT_MS, every ten minutes, in chunks. */
@Injectable()
export class WebhookInboxRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookInboxRetention.name);
  private readonly runner: SqlRunner;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
    private readonly inbox: WebhookInboxRepository,
  ) {
    this.runner = poolRunner(dataSource);
  }

  onApplicationBootstrap(): void {
    const tick = () => {
      this.running ??= this.purge()
        .then(() => undefined)
        .catch((err: Error) => this.logger.warn(`inbox retention pass failed: ${err.message}`))
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

  async purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - INBOX_KEPT_MS);
    let deleted = 0;
    for (;;) {
      const count = await this.inbox.purgeProcessed(this.runner, before, CHUNK);
      deleted += count;
      if (count < CHUNK) return deleted;
    }
  }
}
