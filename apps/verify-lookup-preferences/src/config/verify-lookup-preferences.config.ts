import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const verifyLookupPreferencesEnv = { ...serviceEnv };
export type VerifyLookupPreferencesConfig = ConfigOf<typeof verifyLookupPreferencesEnv>;
