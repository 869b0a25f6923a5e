import { env } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

/** The database of a process: each service (the gateway too) keeps its data in its own schema. */
export const databaseEnv = {
  DATABASE_URL: env.url({
    default: 'postgres://postgres:postgres@127.0.0.1:5432/switchboard',
    protocols: ['postgres', 'postgresql'],
    description: 'PostgreSQL URL; each service (the gateway too) uses its own schema',
    secret: true,
  }),
  DATABASE_POOL_SIZE: env.int({
    default: 10,
    min: 1,
    max: 200,
    description: "connections in the process's pool",
  }),
};

/**
 * The database plus what a service that seals secrets, answers idempotent writes and signs list
 * cursors needs (see `ServiceDataModule`): its config spreads this instead of `databaseEnv`.
 */
export const storageEnv = {
  ...databaseEnv,
  ENCRYPTION_KEY: env.string({
    minLength: 16,
    description:
      'key that seals secrets and stored idempotent replies at rest and signs list cursors (generated in the embedded default)',
    secret: true,
  }),
  IDEMPOTENCY_TTL_HOURS: env.int({
    // The SDK's idempotency window: "3 hours by default".
    default: 3,
    min: 1,
    max: 720,
    description: 'how long an idempotency key and its stored reply are kept',
  }),
  CURSOR_TTL_HOURS: env.int({
    default: 24,
    min: 1,
    max: 720,
    description: 'how long a list cursor stays valid',
  }),
};

export type DatabaseConfig = ConfigOf<typeof databaseEnv>;
export type StorageConfig = ConfigOf<typeof storageEnv>;
