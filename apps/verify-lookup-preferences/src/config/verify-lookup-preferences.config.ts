import { databaseEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const verifyLookupPreferencesEnv = { ...serviceEnv, ...databaseEnv };
export type VerifyLookupPreferencesConfig = ConfigOf<typeof verifyLookupPreferencesEnv>;
