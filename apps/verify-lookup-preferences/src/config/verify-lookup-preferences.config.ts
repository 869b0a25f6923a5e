import { storageEnv } from '@switchboard/persistence';
import { env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const verifyLookupPreferencesEnv = {
  ...serviceEnv,
  ...storageEnv,
  DNS_SERVERS: env.optionalString({
    description:
      "comma-separated DNS servers (host or host:port) for email lookups' mail hosts; unset: the system resolver",
  }),
  DNS_TIMEOUT_MS: env.int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: 'time-out of one DNS query',
  }),
};
export type VerifyLookupPreferencesConfig = ConfigOf<typeof verifyLookupPreferencesEnv>;

/** The service's configuration, injectable in every feature module. */
export const VERIFY_LOOKUP_PREFERENCES_CONFIG = Symbol('VERIFY_LOOKUP_PREFERENCES_CONFIG');
