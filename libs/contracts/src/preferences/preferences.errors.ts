import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of the preference ledger. */
export const PreferenceErrorCatalog = {
  E01110: {
    status: 422,
    type: 'validation_error',
    name: 'PreferenceOwnOptOut',
    message: "The person's own opt-out cannot be overridden or deleted through this API.",
    description:
      "The key's current statement is one the person made themselves (origin `unsubscribe_link`, `unsubscribe_event`, `keyword` or `preference_page`: an opt-out, or a START that ended one). It cannot be deleted; an opt-out of theirs is replaced by a grant asserted on their behalf only with `consented_at` evidence later than the opt-out.",
  },
  E01111: {
    status: 422,
    type: 'validation_error',
    name: 'PreferenceConsentRequired',
    message: 'A grant over an opt-out needs a consented_at later than the opt-out.',
    description:
      'The key holds an opt-out. A `granted` statement reverses it only when it carries `consented_at` evidence dated after the opt-out took effect; send the moment the person consented again.',
  },
  E04100: {
    status: 404,
    type: 'not_found_error',
    name: 'PreferenceNotFound',
    message: 'No preference with this id exists in this workspace.',
    description:
      "The `preference_id` is not one of this workspace's current preferences: it was deleted, or it belongs to another workspace. Find one with `GET /v1/preferences?channel=&handle=`.",
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(PreferenceErrors.PreferenceNotFound)`. */
export const PreferenceErrors = codesOf(PreferenceErrorCatalog);
