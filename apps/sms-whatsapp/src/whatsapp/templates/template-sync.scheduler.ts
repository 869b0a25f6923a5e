import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeQueue } from '@switchboard/background';
import { pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { TEMPLATE_SYNC_QUEUE, TemplateSyncRepository } from './template-sync.repository';

/**
 * The periodic sync: every account whose templates were synced longer ago than
 * `WHATSAPP_TEMPLATE_SYNC_INTERVAL_SECONDS` (or never) gets a sync job, checked at a tenth of
 * the interval (at most a minute apart). Meta's webhooks keep statuses current in between; the
 * periodic sync catches what they do not carry (content edits, new and deleted templates).
 */
@Injectable()
export class TemplateSyncScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TemplateSyncScheduler.name);
  private readonly runner: SqlRunner;
  private readonly intervalMs: number;
  /** Without a token every Graph call fails at once: nothing is scheduled. */
  private readonly enabled: boolean;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;

  constructor(
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly repository: TemplateSyncRepository,
    @Inject(SMS_WHATSAPP_CONFIG) config: SmsWhatsappConfig,
  ) {
    this.runner = poolRunner(dataSource);
    this.intervalMs = config.WHATSAPP_TEMPLATE_SYNC_INTERVAL_SECONDS * 1000;
    this.enabled = Boolean(config.WHATSAPP_ACCESS_TOKEN);
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    const every = Math.min(60_000, Math.max(1_000, this.intervalMs / 10));
    this.timer = setInterval(() => {
      this.ticking ??= this.tick().finally(() => (this.ticking = undefined));
    }, every);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  private async tick(): Promise<void> {
    try {
      if ((await this.repository.enqueueDue(this.runner, this.intervalMs)) > 0)
        wakeQueue(pgPoolOf(this.dataSource), 'sms_whatsapp', TEMPLATE_SYNC_QUEUE);
    } catch (err) {
      this.logger.warn(`periodic template sync not scheduled: ${(err as Error).message}`);
    }
  }
}
