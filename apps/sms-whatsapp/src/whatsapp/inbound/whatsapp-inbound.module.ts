import { Module } from '@nestjs/common';
import { WHATSAPP_INBOUND_SINK } from '../webhooks/meta-webhook';
import { InboundMessagesRecorder } from './inbound-messages.sink';
import { InboundRepository } from './inbound.repository';

/**
 * The `InboundMessagesSink` the webhook processor records inbound messages and reactions with
 * (`WHATSAPP_INBOUND_SINK`); import this module where the processor runs.
 */
@Module({
  providers: [
    InboundRepository,
    InboundMessagesRecorder,
    { provide: WHATSAPP_INBOUND_SINK, useExisting: InboundMessagesRecorder },
  ],
  exports: [InboundMessagesRecorder, WHATSAPP_INBOUND_SINK],
})
export class WhatsAppInboundModule {}
