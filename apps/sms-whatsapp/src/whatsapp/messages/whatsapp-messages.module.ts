import { Module } from '@nestjs/common';
import { WhatsAppStatusesRepository } from './message-statuses.repository';

/**
 * WhatsApp messages: send (accept), get, list and timelines; the statuses Meta reports are
 * applied through `WhatsAppStatusesRepository`, which the webhook processor imports.
 */
@Module({
  providers: [WhatsAppStatusesRepository],
  exports: [WhatsAppStatusesRepository],
})
export class WhatsAppMessagesModule {}
