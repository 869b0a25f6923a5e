import { runServiceProcess } from '@switchboard/platform';
import { verifyLookupPreferencesService } from './verify-lookup-preferences.service-process';

void runServiceProcess(verifyLookupPreferencesService);
