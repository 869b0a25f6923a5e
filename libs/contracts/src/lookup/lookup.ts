import type {
  EmailLookup,
  LookupEmailParams,
  LookupPhoneNumberParams,
  PhoneNumberLookup,
} from '@messagebird/sdk';

export type { EmailLookup, LookupEmailParams, LookupPhoneNumberParams, PhoneNumberLookup };

/** Transport subjects of lookups, answered by the verify-lookup-preferences service. */
export const LookupSubjects = {
  PhoneNumber: 'verify_lookup_preferences.lookup.phone_number',
  Email: 'verify_lookup_preferences.lookup.email',
} as const;

/** The separately billed properties a phone number lookup may request (`type`). */
export const LOOKUP_PROPERTIES = [
  'classification',
  'porting',
  'presence',
  'roaming',
  'sim_swap',
  'score',
] as const;
export type LookupPropertyName = (typeof LOOKUP_PROPERTIES)[number];

export const LOOKUP_LIMITS = { phoneNumberLength: 64, emailLength: 320 } as const;
