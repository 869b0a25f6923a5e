import { Module } from '@nestjs/common';
import { BusinessAccountsModule } from './business-accounts';
import { WhatsAppMessagesRequestModule } from './messages';
import { WhatsAppInteractionsModule } from './inbound/whatsapp-interactions.module';
import { ConnectorsModule } from './connectors';
import { NumberReadsModule, WhatsAppNumbersModule } from './numbers';
import { WhatsAppTemplatesModule } from './templates';
import { WhatsAppWebhooksModule } from './webhooks/whatsapp-webhooks.module';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [
    WhatsAppNumbersModule,
    BusinessAccountsModule,
    WhatsAppWebhooksModule,
    NumberReadsModule,
    ConnectorsModule,
    WhatsAppTemplatesModule,
    WhatsAppMessagesRequestModule,
    WhatsAppInteractionsModule,
    NumberReadsModule,
    ConnectorsModule,
  ],
})
export class WhatsAppModule {}
