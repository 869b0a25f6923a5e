import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { WhatsAppNumbersHandler } from './whatsapp-numbers.handler';
import { WhatsAppNumbersModule } from './whatsapp-numbers.module';
import { WhatsAppNumbersService } from './whatsapp-numbers.service';

/** The SDK's `whatsapp.numbers` reads: list, get, events, and the profile read live from Meta. */
@Module({
  imports: [WhatsAppGraphModule, WhatsAppNumbersModule],
  controllers: [WhatsAppNumbersHandler],
  providers: [WhatsAppNumbersService],
})
export class NumberReadsModule {}
