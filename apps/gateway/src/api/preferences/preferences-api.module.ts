import { Module } from '@nestjs/common';
import { ContactPreferencesController, PreferencesController } from './preferences.controller';

/** The preference ledger and a contact's preferences. */
@Module({ controllers: [PreferencesController, ContactPreferencesController] })
export class PreferencesApiModule {}
