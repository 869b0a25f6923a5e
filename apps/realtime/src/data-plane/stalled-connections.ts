import { Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RealtimeEngine } from './engine';

/** How often connections are checked for a reader that stopped reading. */
const CHECK_INTERVAL_MS = 1_000;

/** Runs the engine's check for stalled readers (`closeStalled`) once a second. */
@Injectable()
export class StalledConnections implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(private readonly engine: RealtimeEngine) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.engine.closeStalled(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
