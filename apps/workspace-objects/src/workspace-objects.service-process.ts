import type { ServiceProcess } from '@switchboard/platform';
import { runMigrations } from '@switchboard/persistence';
import { workspaceObjectsEnv } from './config/workspace-objects.config';
import { workspaceObjectsDatabase } from './database/workspace-objects.database';
import { WorkspaceObjectsModule } from './workspace-objects.module';

export const workspaceObjectsService: ServiceProcess<typeof workspaceObjectsEnv> = {
  name: 'workspace_objects',
  schema: workspaceObjectsEnv,
  module: (config) => WorkspaceObjectsModule.register(config),
  migrate: (config) => runMigrations(workspaceObjectsDatabase(config)),
};
