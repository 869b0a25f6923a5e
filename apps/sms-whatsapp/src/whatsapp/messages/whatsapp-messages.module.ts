import { Module } from '@nestjs/common';
import { WhatsAppStatusesRepository } from './message-statuses.repository';
import { MetaStatusApplier } from './meta-status.applier';

/**
 * WhatsApp messages: send (accept), get, list and timelines; the statuses Meta reports are
 * applied through `MetaStatusApplier` (the webhook processor's `WHATSAPP_STATUS_APPLIER`).
 */
@Module({
  providers: [WhatsAppStatusesRepository, MetaStatusApplier],
  exports: [WhatsAppStatusesRepository, MetaStatusApplier],
})
export class WhatsAppMessagesModule {}
