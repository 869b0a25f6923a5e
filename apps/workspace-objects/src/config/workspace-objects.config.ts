import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const workspaceObjectsEnv = { ...serviceEnv };
export type WorkspaceObjectsConfig = ConfigOf<typeof workspaceObjectsEnv>;
