import { storageEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const verifyLookupPreferencesEnv = { ...serviceEnv, ...storageEnv };
export type VerifyLookupPreferencesConfig = ConfigOf<typeof verifyLookupPreferencesEnv>;

/** The injection token of the service's `VerifyLookupPreferencesConfig` (global in the service). */
export const VERIFY_LOOKUP_PREFERENCES_CONFIG = Symbol('VERIFY_LOOKUP_PREFERENCES_CONFIG');
