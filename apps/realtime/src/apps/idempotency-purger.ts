import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { purgeIdempotencyRecords } from '@switchboard/persistence';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { RealtimeAppsRepository } from './realtime-apps.repository';

const PURGE_EVERY_MS = 10 * 60_000;

/** Deletes idempotency records past their retention, every few minutes. */
@Injectable()
export class IdempotencyPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyPurger');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(REALTIME_CONFIG) private readonly config: RealtimeConfig,
    private readonly repository: RealtimeAppsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      return await purgeIdempotencyRecords(this.repository.dataSource, 'realtime', this.config.IDEMPOTENCY_TTL_HOURS);
    } catch (err) {
      this.logger.warn({ err }, 'idempotency purge failed; will retry');
      return 0;
    }
  }
}
