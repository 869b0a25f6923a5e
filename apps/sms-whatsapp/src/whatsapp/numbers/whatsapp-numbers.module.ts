import { Module } from '@nestjs/common';
import { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';

/**
 * The workspace's WhatsApp numbers (the SDK's `whatsapp.numbers`). Exports the repository, whose
 * lookups by Meta's phone number id and by a send's `from` serve webhooks and sends.
 */
@Module({
  providers: [WhatsAppNumbersRepository],
  exports: [WhatsAppNumbersRepository],
})
export class WhatsAppNumbersModule {}
