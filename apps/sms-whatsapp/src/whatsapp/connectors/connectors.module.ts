import { Module } from '@nestjs/common';
import { WhatsAppGraphModule } from '../graph/whatsapp-graph.module';
import { BusinessAccountsModule } from '../business-accounts';
import { WhatsAppNumbersModule } from '../numbers';
import { WhatsAppTemplatesModule } from '../templates';
import { ChannelGroupsService } from './channel-groups.service';
import { ConnectService } from './connect.service';
import { ConnectorsHandler } from './connectors.handler';
import { ConnectorsRepository } from './connectors.repository';

/** The workspace API's connectors and channel groups: connecting WhatsApp numbers (ADR 0013). */
@Module({
  imports: [
    WhatsAppGraphModule,
    WhatsAppNumbersModule,
    BusinessAccountsModule,
    WhatsAppTemplatesModule,
  ],
  controllers: [ConnectorsHandler],
  providers: [ConnectorsRepository, ConnectService, ChannelGroupsService],
})
export class ConnectorsModule {}
