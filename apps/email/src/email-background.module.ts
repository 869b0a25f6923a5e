import { Module } from '@nestjs/common';
import { DeliveryModule } from './delivery/delivery.module';
import { ContentExpiry, EmailEventsRelay, MessagesModule } from './messages';
import { EmailPreferenceStatesConsumer } from './preferences';
import { EmailStatsRollupsConsumer } from './stats';

/**
 * The email service's work that outlives requests: the processing and delivery queues, the relay
 * of its outbox onto the event bus, the projection of the preference ledger it follows off the
 * bus (ADR 14), the stats rollups it folds from its own events (ADR 18), and the expiry of stored contents. Distributed mode runs it in
 * the service's process; the embedded default on its background thread (ADR 11).
 */
@Module({
  imports: [MessagesModule, DeliveryModule],
  providers: [
    EmailPreferenceStatesConsumer,
    EmailEventsRelay,
    ContentExpiry,
    EmailStatsRollupsConsumer,
  ],
})
export class EmailBackgroundModule {}
