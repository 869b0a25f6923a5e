import { LookupErrors } from '@switchboard/contracts';
import type { LookupPhoneNumberParams, PhoneNumberLookup } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { NumberType } from 'libphonenumber-js/max';

type LineType = PhoneNumberLookup['line_type'];
type Classification = NonNullable<NonNullable<PhoneNumberLookup['classification']>['value']>;

/**
 * What the carrier platform would call the range. Shared-cost, universal-access and voicemail
 * ranges are what it calls `service` (the SDK's `LookupClassificationValue`); kinds it has no
 * word for are `other`.
 */
const LINE_TYPES: Record<NonNullable<NumberType>, LineType> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'fixed_line',
  FIXED_LINE_OR_MOBILE: 'other',
  VOIP: 'voip',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  PAGER: 'pager',
  SHARED_COST: 'service',
  PERSONAL_NUMBER: 'other',
  UAN: 'service',
  VOICEMAIL: 'service',
};

/** The numbering plan's allocation of the range is exactly what `classification` reports. */
const CLASSIFICATIONS: Record<NonNullable<NumberType>, Classification> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'fixed_line',
  FIXED_LINE_OR_MOBILE: 'fixed_line_or_mobile',
  VOIP: 'voip',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  PAGER: 'pager',
  SHARED_COST: 'shared_cost',
  PERSONAL_NUMBER: 'personal_number',
  UAN: 'universal_access',
  VOICEMAIL: 'voice_mail',
};

const DIALLABLE = /^\+?[0-9\s().-]+$/;

/** `+31...`, `31...` and `0031...` are one number; a national form has no country code to read. */
function internationalForm(raw: string): string | undefined {
  const text = raw.trim();
  if (!DIALLABLE.test(text)) return undefined;
  if (text.startsWith('+')) return text;
  const digits = text.replace(/[\s().-]/g, '');
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('0')) return undefined;
  return `+${digits}`;
}

/**
 * A phone number lookup answered offline from numbering metadata (libphonenumber-js `max`):
 * country, line type and classification come from the plan. Presence, roaming, SIM swap,
 * porting, score and the serving network need a carrier query this platform does not make,
 * so they answer `unavailable` (or are omitted, for the networks) rather than a guess.
 */
export function lookUpPhoneNumber(params: LookupPhoneNumberParams): PhoneNumberLookup {
  const international = internationalForm(params.phone_number);
  const parsed = international ? parsePhoneNumberFromString(international) : undefined;
  if (!parsed || !parsed.isPossible()) {
    throw new AppError(LookupErrors.LookupPhoneNumberInvalid, {
      param: 'phone_number',
      message: 'phone_number must be an international number with its country code',
    });
  }
  const kind = parsed.isValid() ? parsed.getType() : undefined;
  const answer: { -readonly [K in keyof PhoneNumberLookup]: PhoneNumberLookup[K] } = {
    phone_number: parsed.number,
    flags: [],
    line_type: kind ? LINE_TYPES[kind] : 'unknown',
  };
  if (parsed.country) answer.country_code = parsed.country;
  const requested = new Set(params.type ?? []);
  if (requested.has('classification')) {
    answer.classification = kind
      ? { status: 'ok', value: CLASSIFICATIONS[kind] }
      : { status: 'inconclusive' };
  }
  if (requested.has('presence')) answer.presence = { status: 'unavailable' };
  if (requested.has('roaming')) answer.roaming = { status: 'unavailable' };
  if (requested.has('sim_swap')) answer.sim_swap = { status: 'unavailable' };
  if (requested.has('porting')) answer.porting = { status: 'unavailable' };
  if (requested.has('score')) answer.score = { status: 'unavailable' };
  return answer;
}
