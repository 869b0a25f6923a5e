import { Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { OutboxRelay, pgPoolOf, processEventBus } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

/**
 * Publishes the email service's committed events (`email.*`, `domain.*`,
 * `email_suppression.created`) from its outbox onto the process's event bus.
 */
@Injectable()
export class EmailEventsRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    const pool = pgPoolOf(dataSource);
    this.relay = new OutboxRelay(pool, 'email', processEventBus);
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
