import { Module } from '@nestjs/common';
import { DeliveryModule } from './delivery/delivery.module';
import { ContentExpiry, EmailEventsRelay, MessagesModule } from './messages';

/**
 * The email service's work that outlives requests: the processing and delivery queues, the relay
 * of its outbox onto the event bus, and the expiry of stored contents. Distributed mode runs it in
 * the service's process; the embedded default on its background thread (ADR 11).
 */
@Module({
  imports: [MessagesModule, DeliveryModule],
  providers: [EmailEventsRelay, ContentExpiry],
})
export class EmailBackgroundModule {}
