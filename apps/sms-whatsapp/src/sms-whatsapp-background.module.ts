import { Module } from '@nestjs/common';
import { SmsDeliveryModule } from './delivery/delivery.module';
import { SmsWhatsappEventsRelay } from './events/sms-whatsapp-events.relay';
import { SmsWhatsappPreferenceStatesConsumer } from './preferences';
import { StatsRollupsConsumer } from './stats';
import { SmsSuppressionsModule } from './suppressions';
import { WhatsAppBackgroundModule } from './whatsapp/whatsapp-background.module';

/**
 * The service's work that outlives requests: the relay of its outbox onto the event bus, and the
 * projection of the preference ledger it follows off the bus (ADR 14).
 * Distributed mode runs it in the service's process; the embedded default on its background
 * thread (ADR 11).
 */
@Module({
  imports: [SmsDeliveryModule, SmsSuppressionsModule, WhatsAppBackgroundModule],
  providers: [SmsWhatsappPreferenceStatesConsumer, SmsWhatsappEventsRelay, StatsRollupsConsumer],
})
export class SmsWhatsappBackgroundModule {}
