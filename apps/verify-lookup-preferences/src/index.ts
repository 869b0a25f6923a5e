export { verifyLookupPreferencesService } from './verify-lookup-preferences.service-process';
export { verifyLookupPreferencesEnv } from './config/verify-lookup-preferences.config';
