import { Module } from '@nestjs/common';
import { PreferenceLedger } from './preference-ledger';
import { PreferencesHandler } from './preferences.handler';
import { PreferencesRepository } from './preferences.repository';
import { PreferencesService } from './preferences.service';

/**
 * The preference ledger; needs the service's data source and its idempotent writes. Exports the
 * ledger's writes and queries for the consumer of the channels' statements (background part).
 */
@Module({
  controllers: [PreferencesHandler],
  providers: [PreferencesRepository, PreferenceLedger, PreferencesService],
  exports: [PreferencesService, PreferenceLedger, PreferencesRepository],
})
export class PreferencesModule {}
