import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { pgPoolOf } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { OutboxRelay } from '@switchboard/background';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';

const RELAY_GATHER_MS = 50;

/**
 * Publishes the email service's committed events (`email.*`, `domain.*`,
 * `email_suppression.created`) from its outbox onto the event bus: the process's in the
 * embedded default, JetStream in distributed mode.
 */
@Injectable()
export class EmailEventsRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    @Inject(EMAIL_CONFIG) config: EmailConfig,
    @InjectDataSource('email') dataSource: DataSource,
  ) {
    // Every accepted send notifies: gathering 50 ms of them per batch keeps the relay to about
    // twenty transactions a second under load (each one a publish and the webhooks intake's
    // statement), where it otherwise ran one per wake-up; a webhook waits 50 ms more.
    this.relay = new OutboxRelay(pgPoolOf(dataSource), 'email', eventBusFor(config), {
      gatherMs: RELAY_GATHER_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
