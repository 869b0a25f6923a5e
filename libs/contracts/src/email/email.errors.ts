import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of email messages, sending domains and suppressions. */
export const EmailErrorCatalog = {
  E01016: {
    status: 422,
    type: 'validation_error',
    name: 'SenderNotAllowed',
    message: 'The sender address is not on a verified sending domain of this workspace.',
    description:
      "Mail may be sent from a sending domain of the workspace once it is `verified` (`POST /v1/email/domains`, publish the records, then `POST /v1/email/domains/{domain_id}/verify`), or from the shared onboarding domain, whose mail reaches only the workspace's own users. `details[0].param` names `from` (or `messages[i].from` in a batch) and the message says which rule failed: no such domain, domain not yet verified, or not an address.",
  },
  E01018: {
    status: 425,
    type: 'too_early_error',
    name: 'ContentNotReady',
    message: 'The content is still being stored; retry shortly.',
    description:
      'The stored content of a message is the copy that was generated for delivery. It exists once the message is `processed`; a scheduled or just-accepted message has none yet. Retry after the number of seconds in `Retry-After`.',
  },
  E01019: {
    status: 413,
    type: 'payload_too_large_error',
    name: 'EmailMessageTooLarge',
    message: 'The generated message would exceed 20 MB.',
    description:
      'A message may be at most 20 MB once generated: the HTML and text bodies and every attachment, measured after base64 and MIME encoding (about a third more than the raw bytes). `param` names the message (`body`, or `messages[i]` in a batch) and the message gives its estimated size. Send smaller attachments, or links to them.',
  },
  E04005: {
    status: 404,
    type: 'not_found_error',
    name: 'DomainNotFound',
    message: 'The sending domain does not exist.',
    description: 'No sending domain with this ID exists in the workspace of the credential.',
  },
  E04006: {
    status: 404,
    type: 'not_found_error',
    name: 'SuppressionNotFound',
    message: 'The suppression does not exist.',
    description: 'No suppression with this ID exists in the workspace of the credential.',
  },
  E04007: {
    status: 404,
    type: 'not_found_error',
    name: 'EmailMessageNotFound',
    message: 'The email message does not exist.',
    description: 'No email message with this ID exists in the workspace of the credential.',
  },
  E04008: {
    status: 404,
    type: 'not_found_error',
    name: 'ContentNotStored',
    message: 'No content is stored for this message.',
    description:
      'Nothing was generated for this message: it was canceled before it was sent, or every recipient was rejected before delivery. The content of a verification passcode message (metadata `switchboard_verification_id`) is never returned either.',
  },
  E04009: {
    status: 410,
    type: 'gone_error',
    name: 'ContentExpired',
    message: 'The stored content has expired.',
    description:
      'Stored content is kept for 30 days after the message was generated (`EMAIL_CONTENT_RETENTION_DAYS`), then deleted. The message itself, its recipients and events stay readable.',
  },
  E05003: {
    status: 502,
    type: 'internal_error',
    name: 'MailInfrastructureError',
    message: 'The mail infrastructure could not be reached.',
    description:
      "A DNS server or mail server that the operation depends on did not answer or answered with an error. `vendor_code` carries that system's code verbatim (a DNS error such as `ETIMEOUT`, or an SMTP reply code). Nothing was changed; retry with exponential back-off.",
  },
  E06002: {
    status: 409,
    type: 'conflict_error',
    name: 'DomainAlreadyExists',
    message: 'This domain is already registered in the workspace.',
    description:
      'A workspace registers a sending domain once. Read it with `GET /v1/email/domains?name=...`.',
  },
  E06003: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailMessageNotCancelable',
    message: 'The message is no longer scheduled, so it cannot be canceled.',
    description:
      'Only a message whose `status` is `scheduled` can be canceled. Once it started sending, or after it was canceled, cancel answers 409 and changes nothing.',
  },
  E07002: {
    status: 429,
    type: 'rate_limit_error',
    name: 'OnboardingDomainLimit',
    message: 'The shared onboarding domain allows only a few messages a day per workspace.',
    description:
      'Mail from the shared onboarding domain is for trying the platform: each workspace may send `EMAIL_ONBOARDING_DAILY_LIMIT` messages from it per UTC day (100 by default). Verify a sending domain of your own to send more. `Retry-After` gives the seconds until the next UTC day.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(EmailErrors.SenderNotAllowed)`. */
export const EmailErrors = codesOf(EmailErrorCatalog);
