import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { BusinessAccountsRepository } from '../business-accounts/business-accounts.repository';
import { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';
import { MetaSyncRunner } from './meta-sync.runner';

/** The periodic re-read of numbers and business accounts from Meta (background work). */
@Module({
  imports: [WhatsAppGraphModule],
  providers: [WhatsAppNumbersRepository, BusinessAccountsRepository, MetaSyncRunner],
  exports: [MetaSyncRunner],
})
export class MetaSyncModule {}
