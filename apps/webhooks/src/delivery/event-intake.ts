import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { pgPoolOf } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { wakeQueue } from '@switchboard/background';
import type { OutboxEvent } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { WEBHOOKS_CONFIG } from '../config/webhooks.config';
import type { WebhooksConfig } from '../config/webhooks.config';
import { DeliveriesRepository } from './deliveries.repository';
import { DELIVER_QUEUE } from './delivery.queue';
import { DeliveryRunner } from './delivery.runner';
import { webhookEventsReceived } from './webhook-metrics';

/** The durable consumer's name on the JetStream bus: it keeps its place while the service is down. */
const WEBHOOKS_CONSUMER = 'webhooks';

/**
 * Takes every product's events off the bus (the in-process bus in the embedded default, a
 * durable JetStream consumer in distributed mode) and stores each batch with its deliveries and
 * their jobs in one transaction before acknowledging it; the jobs that fit in the delivery
 * runner's free slots are stored claimed by it and handed over at once. An event the bus
 * delivers twice is stored once (its id is the key), so each endpoint gets it once. The
 * services' internal events (`internal.*`) pass by: acknowledged with their batch, never stored
 * nor delivered.
 */
@Injectable()
export class EventIntake implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookIntake');
  private readonly pool: Pool;
  private unsubscribe?: () => void;

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @InjectDataSource('webhooks') dataSource: DataSource,
    private readonly repository: DeliveriesRepository,
    private readonly runner: DeliveryRunner,
  ) {
    this.pool = pgPoolOf(dataSource);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = eventBusFor(this.config).subscribe(
      '',
      (events) => this.take(events),
      WEBHOOKS_CONSUMER,
    );
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  private async take(events: OutboxEvent[]): Promise<void> {
    // The deliveries that fit in the runner's free slots are stored claimed and handed to it.
    // Were the commit's answer lost, their slots would be freed while the jobs stay claimed:
    // they run once their lease is out.
    const reservation = this.runner.reserve(events.length);
    let stored: Awaited<ReturnType<DeliveriesRepository['intake']>>;
    try {
      // One statement, so its own transaction: events, deliveries and jobs commit together.
      stored = await this.repository.intake(events, reservation);
    } catch (err) {
      reservation.release();
      throw err;
    }
    const othersQueued = stored.deliveries > stored.claimed.length;
    this.runner.adopt(reservation, stored.claimed, othersQueued);
    if (othersQueued) wakeQueue(this.pool, 'webhooks', DELIVER_QUEUE);
    webhookEventsReceived.inc(stored.events);
    this.logger.debug(`${stored.events} new event(s), ${stored.deliveries} delivery(ies) queued`);
  }
}
