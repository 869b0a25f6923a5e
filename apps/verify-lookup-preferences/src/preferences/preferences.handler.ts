import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { PreferenceSubjects } from '@switchboard/contracts';
import type {
  CreatePreferenceRequest,
  ListContactPreferencesRequest,
  ListPreferencesRequest,
  PreferenceIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { PreferencesService } from './preferences.service';

/** Transport handlers of the preference ledger; the gateway has validated every payload. */
@Controller()
export class PreferencesHandler {
  constructor(private readonly preferences: PreferencesService) {}

  @Handles(PreferenceSubjects.CreatePreference)
  create(@Payload() input: CreatePreferenceRequest, @Ctx() context: BaseRpcContext) {
    return this.preferences.create(requestContextOf(context), input);
  }

  @Handles(PreferenceSubjects.ListPreferences)
  list(@Payload() input: ListPreferencesRequest, @Ctx() context: BaseRpcContext) {
    return this.preferences.list(requestContextOf(context), input);
  }

  @Handles(PreferenceSubjects.GetPreference)
  get(@Payload() input: PreferenceIdRequest, @Ctx() context: BaseRpcContext) {
    return this.preferences.get(requestContextOf(context), input.preference_id);
  }

  @Handles(PreferenceSubjects.DeletePreference)
  remove(@Payload() input: PreferenceIdRequest, @Ctx() context: BaseRpcContext) {
    return this.preferences.remove(requestContextOf(context), input.preference_id);
  }

  @Handles(PreferenceSubjects.ListContactPreferences)
  listForContact(@Payload() input: ListContactPreferencesRequest, @Ctx() context: BaseRpcContext) {
    return this.preferences.listForContact(requestContextOf(context), input);
  }
}
