import { storageEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const workspaceObjectsEnv = { ...serviceEnv, ...storageEnv };
export type WorkspaceObjectsConfig = ConfigOf<typeof workspaceObjectsEnv>;
export const WORKSPACE_OBJECTS_CONFIG = Symbol('WORKSPACE_OBJECTS_CONFIG');
