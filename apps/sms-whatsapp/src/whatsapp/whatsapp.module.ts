import { Module } from '@nestjs/common';
import { BusinessAccountsModule } from './business-accounts';
import { ConnectorsModule } from './connectors';
import { NumberReadsModule, WhatsAppNumbersModule } from './numbers';
import { WhatsAppWebhooksModule } from './webhooks/whatsapp-webhooks.module';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [
    WhatsAppNumbersModule,
    BusinessAccountsModule,
    WhatsAppWebhooksModule,
    NumberReadsModule,
    ConnectorsModule,
  ],
})
export class WhatsAppModule {}
