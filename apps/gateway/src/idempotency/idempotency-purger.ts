import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyStore } from './idempotency.store';

const PURGE_EVERY_MS = 10 * 60_000;

/** Deletes expired idempotency keys every few minutes. */
@Injectable()
export class IdempotencyPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyPurger');
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: IdempotencyStore) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      return await this.store.purgeExpired();
    } catch (err) {
      this.logger.warn({ err }, 'idempotency purge failed; will retry');
      return 0;
    }
  }
}
