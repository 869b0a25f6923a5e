import { Module } from '@nestjs/common';
import { LookupHandler } from './lookup.handler';
import { LookupService } from './lookup.service';

/**
 * Phone number and email lookups; needs `VERIFY_LOOKUP_PREFERENCES_CONFIG` (global in the
 * service) and the service's idempotent writes.
 */
@Module({ controllers: [LookupHandler], providers: [LookupService] })
export class LookupModule {}
