import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of open and click tracking and of unsubscribe links. */
export const EmailTrackingErrorCatalog = {
  E01140: {
    status: 422,
    type: 'validation_error',
    name: 'UnsubscribeRequestInvalid',
    message: "The request is neither a one-click unsubscribe nor the confirmation page's button.",
    description:
      "A `POST` to an unsubscribe link (`/u/{token}`) records the unsubscribe when its form body is RFC 8058's one-click request, `List-Unsubscribe=One-Click` (as `application/x-www-form-urlencoded` or `multipart/form-data`, which mail clients send for the `List-Unsubscribe-Post` header), or the confirmation page's own form (`unsubscribe=confirm`). Anything else changes nothing and is answered with this error.",
  },
  E04120: {
    status: 404,
    type: 'not_found_error',
    name: 'TrackingLinkNotFound',
    message: 'This tracking link does not exist.',
    description:
      'Open pixels (`/t/o/{token}`) and tracked links (`/t/c/{token}`) carry a token the platform signed when it delivered the message. A token that was altered, cut short or made up names nothing: nothing is recorded and no redirect is given (a tracked link can only lead where the message itself pointed).',
  },
  E04121: {
    status: 404,
    type: 'not_found_error',
    name: 'UnsubscribeLinkNotFound',
    message: 'This unsubscribe link does not exist.',
    description:
      'Unsubscribe links (`/u/{token}`, and the `List-Unsubscribe` header of marketing mail) carry a token the platform signed for one recipient of one message. A token that was altered, cut short or made up, or whose message no longer exists, names nobody, so nothing is unsubscribed.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name: `new AppError(EmailTrackingErrors.TrackingLinkNotFound)`. */
export const EmailTrackingErrors = codesOf(EmailTrackingErrorCatalog);
