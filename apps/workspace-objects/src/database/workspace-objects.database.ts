import type { ServiceDatabase } from '@switchboard/persistence';
import type { WorkspaceObjectsConfig } from '../config/workspace-objects.config';
import { CreateWorkspaceObjectsSchema1763800000500 } from './migrations/1763800000500-create-workspace-objects-schema';
import { CreateContacts1764200000500 } from './migrations/1764200000500-create-contacts';

export function workspaceObjectsDatabase(config: WorkspaceObjectsConfig): ServiceDatabase {
  return {
    schema: 'workspace_objects',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [CreateWorkspaceObjectsSchema1763800000500, CreateContacts1764200000500],
  };
}
