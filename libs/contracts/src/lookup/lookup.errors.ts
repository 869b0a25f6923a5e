import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of phone number and email lookups (E01100-E01109). */
export const LookupErrorCatalog = {
  E01100: {
    status: 422,
    type: 'validation_error',
    name: 'LookupPhoneNumberInvalid',
    message: 'The phone number cannot be read as an international number.',
    description:
      '`POST /v1/lookup/phone-number` takes a number in international format: the country calling code, then the national number (`+31612345678`, `31612345678` and `0031612345678` are the same number). A number written for dialling inside one country, with no country code, is rejected rather than guessed at, as is text that is not a phone number at all. A number that is well formed but not allocated is not an error: it is read as far as the numbering plan allows. Send the number with its country code.',
  },
  E01101: {
    status: 422,
    type: 'validation_error',
    name: 'LookupEmailNotAnAddress',
    message: 'The email field must hold one bare address.',
    description:
      '`POST /v1/lookup/email` looks up one bare address such as `aisha.khan@example.com`. A display-name form (`Aisha <aisha@example.com>`) or a list of addresses is rejected rather than unwrapped, so that the verdict is always about exactly what you sent. A malformed bare address is not an error: it answers `result` `undeliverable` with `reason` `invalid_syntax`. Send the address alone.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const LookupErrors = codesOf(LookupErrorCatalog);
