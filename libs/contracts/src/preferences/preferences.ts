import type {
  Preference,
  PreferenceCoverage,
  PreferenceStatus,
  PreferenceWriteResult,
} from '@messagebird/sdk';

export type { Preference, PreferenceCoverage, PreferenceStatus, PreferenceWriteResult };

/** The verify-lookup-preferences service's preference ledger operations. */
export const PreferenceSubjects = {
  ListPreferences: 'verify_lookup_preferences.preference.list',
  GetPreference: 'verify_lookup_preferences.preference.get',
  CreatePreference: 'verify_lookup_preferences.preference.create',
  DeletePreference: 'verify_lookup_preferences.preference.delete',
  ListContactPreferences: 'verify_lookup_preferences.preference.list_for_contact',
} as const;

export const PREFERENCE_STATUSES = ['granted', 'revoked'] as const;
export const PREFERENCE_COVERAGES = ['all', 'non_transactional'] as const;

/** The origins a person states themselves: their opt-out cannot be overridden or deleted. */
export const OWN_PREFERENCE_ORIGINS = [
  'unsubscribe_link',
  'unsubscribe_event',
  'keyword',
  'preference_page',
] as const;

/** A statement as the gateway validated it; `origin` comes from the caller (api_key or user). */
export interface CreatePreferenceRequest {
  channel: string;
  handle: string;
  status: PreferenceStatus;
  coverage?: PreferenceCoverage;
  sender_scope?: string;
  source?: string;
  consented_at?: string;
  /** The contact whose handle matched at the write, as the gateway found it. */
  contact_id?: string | null;
}

/** Reply of a write: `created` answers 201 (the key had no record) rather than 200. */
export interface CreatePreferenceReply {
  created: boolean;
  result: PreferenceWriteResult;
}

export interface ListPreferencesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  channel?: string;
  handle?: string;
}

/** A contact's current handles, read by the gateway from the workspace-objects service. */
export interface ListContactPreferencesRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
  contact_id: string;
  email: string | null;
  phone_number: string | null;
}
