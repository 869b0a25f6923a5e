import { Module } from '@nestjs/common';
import { SmsDeliveryModule } from './delivery/delivery.module';
import { SmsWhatsappEventsRelay } from './events/sms-whatsapp-events.relay';
import { WhatsAppBackgroundModule } from './whatsapp/whatsapp-background.module';

/**
 * The service's work that outlives requests: the relay of its outbox onto the event bus.
 * Distributed mode runs it in the service's process; the embedded default on its background
 * thread (ADR 11).
 */
@Module({
  imports: [SmsDeliveryModule, WhatsAppBackgroundModule],
  providers: [SmsWhatsappEventsRelay],
})
export class SmsWhatsappBackgroundModule {}
