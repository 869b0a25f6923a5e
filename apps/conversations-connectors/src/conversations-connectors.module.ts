import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
import type { ConversationsConnectorsConfig } from './config/conversations-connectors.config';
import { conversationsConnectorsDatabase } from './database/conversations-connectors.database';

/** The conversations-connectors service: conversations, connectors and channel groups of the workspace API. */
@Module({})
export class ConversationsConnectorsModule {
  static register(config: ConversationsConnectorsConfig): DynamicModule {
    return {
      module: ConversationsConnectorsModule,
      imports: [
        ServiceDataModule.forService({
          database: conversationsConnectorsDatabase(config),
          health: 'conversations_connectors',
        }),
      ],
    };
  }
}
