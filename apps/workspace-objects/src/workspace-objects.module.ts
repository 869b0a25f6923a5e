import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { WorkspaceObjectsConfig } from './config/workspace-objects.config';
import { workspaceObjectsDatabase } from './database/workspace-objects.database';

/** The workspace-objects service: custom object types and records of the workspace API. */
@Module({})
export class WorkspaceObjectsModule {
  static register(config: WorkspaceObjectsConfig): DynamicModule {
    return {
      module: WorkspaceObjectsModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(workspaceObjectsDatabase(config))),
        ServiceHealthModule.forService('workspace_objects', databaseReadiness('workspace_objects')),
      ],
    };
  }
}
