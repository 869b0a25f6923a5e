import { Module } from '@nestjs/common';
import { DeliveriesRepository } from './delivery/deliveries.repository';
import { DeliveryRunner } from './delivery/delivery.runner';
import { EventIntake } from './delivery/event-intake';
import { EventRetention } from './housekeeping';

/**
 * The webhooks service's work that outlives requests: the intake of every product's events from
 * the bus, signed delivery with retries, and the retention of received events. Distributed mode
 * runs it in the service's process; the embedded default on its background thread (ADR 11).
 */
@Module({
  providers: [DeliveriesRepository, EventIntake, DeliveryRunner, EventRetention],
})
export class WebhooksBackgroundModule {}
