import { Module } from '@nestjs/common';
import { BusinessAccountsHandler } from './business-accounts.handler';
import { BusinessAccountsRepository } from './business-accounts.repository';
import { BusinessAccountsService } from './business-accounts.service';

/** The workspace's WhatsApp Business Accounts (the SDK's `whatsapp.businessAccounts`). */
@Module({
  controllers: [BusinessAccountsHandler],
  providers: [BusinessAccountsRepository, BusinessAccountsService],
  exports: [BusinessAccountsRepository],
})
export class BusinessAccountsModule {}
