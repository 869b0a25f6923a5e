import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { ConversationsConnectorsConfig } from './config/conversations-connectors.config';
import { conversationsConnectorsDatabase } from './database/conversations-connectors.database';

/** The conversations-connectors service: conversations, connectors and channel groups of the workspace API. */
@Module({})
export class ConversationsConnectorsModule {
  static register(config: ConversationsConnectorsConfig): DynamicModule {
    return {
      module: ConversationsConnectorsModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(conversationsConnectorsDatabase(config))),
        ServiceHealthModule.forService(
          'conversations_connectors',
          databaseReadiness('conversations_connectors'),
        ),
      ],
    };
  }
}
