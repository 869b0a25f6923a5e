import { Module } from '@nestjs/common';
import { PreferencesHandler } from './preferences.handler';
import { PreferencesRepository } from './preferences.repository';
import { PreferencesService } from './preferences.service';

/** The preference ledger; needs the service's data source and its idempotent writes. */
@Module({
  controllers: [PreferencesHandler],
  providers: [PreferencesRepository, PreferencesService],
  exports: [PreferencesService],
})
export class PreferencesModule {}
