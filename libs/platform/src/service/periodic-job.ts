import { Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * Background housekeeping on a timer (purging expired records): starts with the application,
 * stops with it, never keeps the process alive, and logs a failure instead of crashing.
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private timer?: NodeJS.Timeout;

  protected abstract readonly everyMs: number;

  /** One run of the job; resolves to the number of items it handled. */
  protected abstract work(): Promise<number>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async run(): Promise<number> {
    try {
      return await this.work();
    } catch (err) {
      this.logger.warn(
        { err },
        `${this.constructor.name} failed; it runs again in ${this.everyMs} ms`,
      );
      return 0;
    }
  }
}
