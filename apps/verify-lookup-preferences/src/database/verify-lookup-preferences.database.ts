import type { ServiceDatabase } from '@switchboard/persistence';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { CreateVerifyLookupPreferencesSchema1763800000400 } from './migrations/1763800000400-create-verify-lookup-preferences-schema';
import { CreateLookupIdempotencyRecords1764700000100 } from './migrations/1764700000100-create-lookup-idempotency-records';
import { CreatePreferences1764700000200 } from './migrations/1764700000200-create-preferences';
import { CreateVerifications1764800000300 } from './migrations/1764800000300-create-verifications';
import { AddPreferenceTransitionSourceEvents1764800000400 } from './migrations/1764800000400-add-preference-transition-source-events';
import { RepublishPreferenceKeys1764800000600 } from './migrations/1764800000600-republish-preference-keys';
import { PreferenceIdPerLife1764800000700 } from './migrations/1764800000700-preference-id-per-life';

export function verifyLookupPreferencesDatabase(
  config: VerifyLookupPreferencesConfig,
): ServiceDatabase {
  return {
    schema: 'verify_lookup_preferences',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [
      CreateVerifyLookupPreferencesSchema1763800000400,
      CreateLookupIdempotencyRecords1764700000100,
      CreatePreferences1764700000200,
      CreateVerifications1764800000300,
      AddPreferenceTransitionSourceEvents1764800000400,
      RepublishPreferenceKeys1764800000600,
      PreferenceIdPerLife1764800000700,
    ],
  };
}
