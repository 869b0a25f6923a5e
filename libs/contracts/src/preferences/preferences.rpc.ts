import type { Page } from '../pagination';
import type { IdRequest, Rpc } from '../rpc';
import type { PreferenceSubjects } from './preferences';
import type {
  CreatePreferenceReply,
  CreatePreferenceRequest,
  ListContactPreferencesRequest,
  ListPreferencesRequest,
  Preference,
  PreferenceWriteResult,
} from './preferences';

export type PreferenceIdRequest = IdRequest<'preference_id'>;

/** The verify-lookup-preferences service's preference ledger. */
export interface PreferencesRpc {
  [PreferenceSubjects.ListPreferences]: Rpc<ListPreferencesRequest, Page<Preference>>;
  [PreferenceSubjects.GetPreference]: Rpc<PreferenceIdRequest, Preference>;
  [PreferenceSubjects.CreatePreference]: Rpc<CreatePreferenceRequest, CreatePreferenceReply>;
  [PreferenceSubjects.DeletePreference]: Rpc<PreferenceIdRequest, PreferenceWriteResult>;
  [PreferenceSubjects.ListContactPreferences]: Rpc<ListContactPreferencesRequest, Page<Preference>>;
}
