import { env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const workspaceObjectsEnv = {
  ...serviceEnv,
  ENCRYPTION_KEY: env.string({
    minLength: 16,
    description: 'key that seals stored replies (idempotency) at rest and signs cursors',
    secret: true,
  }),
  IDEMPOTENCY_TTL_HOURS: env.int({
    default: 24,
    min: 1,
    max: 720,
    description: 'how long a stored reply answers a retried Idempotency-Key',
  }),
  CURSOR_TTL_HOURS: env.int({
    default: 24,
    min: 1,
    max: 720,
    description: 'how long a list cursor stays valid',
  }),
};
export type WorkspaceObjectsConfig = ConfigOf<typeof workspaceObjectsEnv>;
export const WORKSPACE_OBJECTS_CONFIG = Symbol('WORKSPACE_OBJECTS_CONFIG');
