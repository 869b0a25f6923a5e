import { Module } from '@nestjs/common';
import { BusinessAccountsModule } from './business-accounts';
import { WhatsAppNumbersModule } from './numbers';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [WhatsAppNumbersModule, BusinessAccountsModule],
})
export class WhatsAppModule {}
