/**
 * Every error code Switchboard answers with. A code is never renamed or reused; add new ones at the
 * end of their group (E01 request, E02 auth, E03 permission, E04 not found, E05 upstream,
 * E06 conflict, E07 rate limit, E08 billing, E09 internal).
 */
export type ErrorType =
  | 'bad_request_error'
  | 'validation_error'
  | 'auth_error'
  | 'permission_error'
  | 'not_found_error'
  | 'method_not_allowed_error'
  | 'conflict_error'
  | 'gone_error'
  | 'too_early_error'
  | 'precondition_error'
  | 'payload_too_large_error'
  | 'misdirected_error'
  | 'rate_limit_error'
  | 'billing_error'
  | 'internal_error'
  | 'service_unavailable_error';

export interface ErrorDefinition {
  readonly status: number;
  readonly type: ErrorType;
  readonly name: string;
  /** Default human-readable message; a thrower may give a more specific one. */
  readonly message: string;
  /** What the code means and what to do about it: the body of its docs page. */
  readonly description: string;
}

export const ErrorCatalog = {
  E01001: {
    status: 422,
    type: 'validation_error',
    name: 'ValidationError',
    message: 'The request has invalid fields.',
    description:
      'One or more fields failed validation. `details` lists each problem with `param`, a dotted path to the field (`to[0].email`) or the name of a query parameter, and a `message`. Unknown body fields and unknown query parameters are rejected by name. Fix the named fields and send again.',
  },
  E01002: {
    status: 400,
    type: 'bad_request_error',
    name: 'MalformedJson',
    message: 'The request body is not valid JSON.',
    description:
      'The body could not be parsed as JSON. Send `Content-Type: application/json` with a well-formed JSON document.',
  },
  E01003: {
    status: 413,
    type: 'payload_too_large_error',
    name: 'PayloadTooLarge',
    message: 'The request body is larger than this operation accepts.',
    description:
      'The body exceeds the size limit of the operation: 20 MB for email send and batch, 1 MB elsewhere unless the deployment configures otherwise. Split the request or shrink its content.',
  },
  E01004: {
    status: 409,
    type: 'conflict_error',
    name: 'RequestInProgress',
    message: 'A request with this Idempotency-Key is still in progress.',
    description:
      'Another request with the same `Idempotency-Key` has not finished yet. Wait for the number of seconds in `Retry-After` and retry with the same key and body; you will receive the stored outcome of the first request.',
  },
  E01005: {
    status: 409,
    type: 'conflict_error',
    name: 'IdempotencyKeyReuse',
    message: 'This Idempotency-Key was already used with another request.',
    description:
      'The `Idempotency-Key` was first used with a different method, route or body. Keys identify one logical operation: generate a new key for a new operation.',
  },
  E01006: {
    status: 404,
    type: 'not_found_error',
    name: 'RouteNotFound',
    message: 'No operation exists at this path.',
    description:
      'The path does not name an operation of this API. Check the path against the API reference (`/v1/openapi.json`); region-hosted paths start with `/v1`.',
  },
  E01007: {
    status: 405,
    type: 'method_not_allowed_error',
    name: 'MethodNotAllowed',
    message: 'This path does not accept this HTTP method.',
    description:
      'The path exists but not with this method. The `Allow` response header lists the methods it accepts.',
  },
  E01008: {
    status: 415,
    type: 'bad_request_error',
    name: 'UnsupportedMediaType',
    message: 'The request body must be JSON.',
    description: 'Send request bodies as `Content-Type: application/json`.',
  },
  E01009: {
    status: 400,
    type: 'bad_request_error',
    name: 'BadRequest',
    message: 'The request is malformed.',
    description:
      'The request could not be understood, for example a blank search query. The message names the problem.',
  },
  E01010: {
    status: 421,
    type: 'misdirected_error',
    name: 'MisdirectedRequest',
    message: 'This credential belongs to another region.',
    description:
      'The API key names a region this deployment does not serve (`bk_{region}_...`). Send the request to the host of that region; the message names it.',
  },
  E01011: {
    status: 408,
    type: 'bad_request_error',
    name: 'RequestTimeout',
    message: 'The request body was not received in time.',
    description: 'The client did not finish sending the request in time. Retry the request.',
  },
  E01012: {
    status: 422,
    type: 'validation_error',
    name: 'InvalidCursor',
    message: 'The pagination cursor is malformed or expired.',
    description:
      'Cursors are opaque: pass back exactly the `next_cursor`, `prev_cursor` or `refresh_cursor` you received, with the same sort and filters, before it expires. Start again from the first page otherwise.',
  },
  E01013: {
    status: 422,
    type: 'validation_error',
    name: 'LastActiveKey',
    message: 'An app must keep at least one active key.',
    description:
      'The key is the only active key of its realtime app, so revoking it would lock every client out. Create a new key first, move your clients to it, then revoke this one.',
  },
  E01014: {
    status: 422,
    type: 'validation_error',
    name: 'ImmutableField',
    message: 'This field cannot be changed after creation.',
    description:
      'The field is fixed when the resource is created (for a realtime app: `region`; TLS is always enforced). Create a new resource to change it.',
  },
  E01015: {
    status: 431,
    type: 'bad_request_error',
    name: 'HeadersTooLarge',
    message: 'The request line or headers are too large.',
    description:
      'The request line and headers together exceed the server limit (16 KB by default). Shorten the URL or query string, or send large inputs in a JSON body.',
  },
  E01016: {
    status: 422,
    type: 'validation_error',
    name: 'SenderNotAllowed',
    message: 'The sender address is not on a verified sending domain of this workspace.',
    description:
      "Mail may be sent from a sending domain of the workspace once it is `verified` (`POST /v1/email/domains`, publish the records, then `POST /v1/email/domains/{domain_id}/verify`), or from the shared onboarding domain, whose mail reaches only the workspace's own users. `details[0].param` names `from` (or `messages[i].from` in a batch) and the message says which rule failed: no such domain, domain not yet verified, or not an address.",
  },
  E01017: {
    status: 422,
    type: 'validation_error',
    name: 'UnsupportedFeature',
    message: 'The request uses a feature this deployment does not offer yet.',
    description:
      '`details[0].param` names the field (for example `template`, until email templates exist, or an `ip_pool_id` other than `ipp_shared`). Send the content inline, or leave the field out.',
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

  E01020: {
    status: 412,
    type: 'precondition_error',
    name: 'WebhookTestNotPossible',
    message: 'The endpoint cannot be tested.',
    description:
      "A test delivery is signed like a real one and uses the `event_type` given or the endpoint's first subscribed type. It needs a valid signing secret; rotate the secret if every one has expired.",
  },
  E01021: {
    status: 400,
    type: 'bad_request_error',
    name: 'RealtimeCountNotAvailable',
    message: 'This count is not available for these channels.',
    description:
      "`include=member_count` is for presence channels only (`presence-` names; on the channel list, a `prefix` starting with `presence-`). `include=connection_count` needs the app's `connection_counting` flag: turn it on with `PATCH /v1/realtime/apps/{id}`.",
  },
  E02001: {
    status: 401,
    type: 'auth_error',
    name: 'MissingCredentials',
    message: 'No credentials were sent.',
    description:
      'Send an API key as `Authorization: Bearer bk_...`, a dashboard session cookie, or for the workspace API `Authorization: AccessKey ...`.',
  },
  E02002: {
    status: 401,
    type: 'auth_error',
    name: 'InvalidCredentials',
    message: 'The credentials are invalid or revoked.',
    description:
      'The API key, access key, session or operator token is unknown, malformed or revoked. Check that you copied the whole secret; secrets are shown once, so create a new key if it was lost.',
  },
  E02003: {
    status: 401,
    type: 'auth_error',
    name: 'InvalidLogin',
    message: 'The email or password is wrong.',
    description: 'No user has this email and password combination.',
  },
  E02004: {
    status: 401,
    type: 'auth_error',
    name: 'RealtimeCredentialsInvalid',
    message: "The realtime app key or secret is missing, unknown, revoked or not this app's.",
    description:
      'Realtime data-plane calls (publish, channels, members) need `X-Realtime-Key` (an active `rak_` key id of the app in the path) and `X-Realtime-Secret` (its secret) beside the API key. A revoked key stops working at once; create a new key and use its secret.',
  },
  E03001: {
    status: 403,
    type: 'permission_error',
    name: 'InsufficientRole',
    message: 'The credential lacks the role this operation requires.',
    description:
      'API keys have a role: `read` keys may call GET operations only; `write` keys may also create, update and delete; `admin` keys may also manage realtime apps and keys, webhooks and domains. Use a key with the role the operation needs.',
  },
  E03002: {
    status: 403,
    type: 'permission_error',
    name: 'WorkspaceMismatch',
    message: 'The credential does not belong to the selected workspace.',
    description:
      'The `X-Workspace-Id` header names a workspace the credential is not scoped to. Omit it, or use a credential of that workspace.',
  },
  E03003: {
    status: 403,
    type: 'permission_error',
    name: 'CsrfTokenInvalid',
    message: 'The X-CSRF-Token header is missing or wrong.',
    description:
      'Requests that change state and authenticate with a session cookie must send `X-CSRF-Token` with the token returned when the session was created.',
  },
  E04001: {
    status: 404,
    type: 'not_found_error',
    name: 'WorkspaceNotFound',
    message: 'The workspace does not exist.',
    description: 'No workspace with this ID exists, or it is not visible to the credential.',
  },
  E04002: {
    status: 404,
    type: 'not_found_error',
    name: 'DocsPageNotFound',
    message: 'No documentation page has this slug.',
    description:
      'The slug does not name a page. `index` is the landing page; search with `/v1/docs/search`.',
  },
  E04003: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeAppNotFound',
    message: 'The realtime app does not exist.',
    description: 'No realtime app with this ID exists in the workspace of the credential.',
  },
  E04004: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeKeyNotFound',
    message: 'The realtime app key does not exist.',
    description: 'No key with this ID belongs to the realtime app.',
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
      'Nothing was generated for this message: it was canceled before it was sent, or every recipient was rejected before delivery.',
  },
  E04009: {
    status: 410,
    type: 'gone_error',
    name: 'ContentExpired',
    message: 'The stored content has expired.',
    description:
      'Stored content is kept for 30 days after the message was generated (`EMAIL_CONTENT_RETENTION_DAYS`), then deleted. The message itself, its recipients and events stay readable.',
  },

  E04010: {
    status: 404,
    type: 'not_found_error',
    name: 'WebhookEndpointNotFound',
    message: 'No webhook endpoint with this id exists in this workspace.',
    description:
      "The `webhook_id` is not one of this workspace's endpoints: it was deleted, or it belongs to another workspace. List them with `GET /v1/webhooks`.",
  },
  E04011: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeChannelNotFound',
    message: 'No channel can have this name.',
    description:
      'A channel name has 1 to 164 letters, digits and `_ - = @ , . ;`. A well-formed name that nobody is subscribed to is not an error: it answers `occupied: false`.',
  },
  E04012: {
    status: 404,
    type: 'not_found_error',
    name: 'RealtimeMemberNotFound',
    message: 'No member can have this id.',
    description:
      'A member id is the `member_id` of the member data your authorization endpoint signed: 1 to 200 printable characters.',
  },
  E04013: {
    status: 404,
    type: 'not_found_error',
    name: 'ContactNotFound',
    message: 'No contact with this id exists in this workspace.',
    description:
      "The `contact_id` is not one of this workspace's contacts: it was deleted, or it belongs to another workspace. Look one up by email, phone number or external id with `GET /v1/contacts`.",
  },
  E04014: {
    status: 404,
    type: 'not_found_error',
    name: 'AudienceNotFound',
    message: 'No audience with this id exists in this workspace.',
    description:
      "The `audience_id` is not one of this workspace's audiences: it was deleted, or it belongs to another workspace. List them with `GET /v1/audiences`.",
  },
  E04015: {
    status: 404,
    type: 'not_found_error',
    name: 'ContactPropertyNotFound',
    message: 'No contact property with this id exists in this workspace.',
    description:
      "The `property_id` is not one of this workspace's contact properties. List them with `GET /v1/contact-properties`; archived properties are listed too.",
  },
  E04055: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPhoneTaken',
    message: 'The phone number belongs to another contact.',
    description:
      'Phone numbers are unique within a workspace, compared in their normalized E.164 form. Update that contact instead, or retry with another number. In a `POST /v1/contacts/batch` result this code marks the entry that failed; the others are unaffected.',
  },
  E04056: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactEmailTaken',
    message: 'The email address belongs to another contact.',
    description:
      'Email addresses are unique within a workspace, compared trimmed and lowercased, so `Ada@Example.com ` and `ada@example.com` are one address. Update that contact instead, or use another address.',
  },
  E04057: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactExternalIdTaken',
    message: 'The external id belongs to another contact.',
    description:
      '`external_id` is unique within a workspace when set. Update the contact that has it, or clear it there first.',
  },
  E04058: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactAmbiguousMatch',
    message: 'The entry matched more than one contact.',
    description:
      'A `POST /v1/contacts/batch` entry without `match_on` is matched on every identifier it carries; here they belong to different contacts (the message names them). Review those contacts, or set `match_on` to say which identifier decides.',
  },
  E05001: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'ServiceTimeout',
    message: 'A service did not answer in time.',
    description:
      'The service that owns this operation did not answer within the time-out. The operation may or may not have happened: retry with the same `Idempotency-Key`, with exponential back-off.',
  },
  E05002: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'ServiceUnavailable',
    message: 'A service is temporarily unavailable.',
    description:
      'The service that owns this operation cannot be reached right now (its transport or database is down). Nothing was done; retry with exponential back-off.',
  },
  E05003: {
    status: 502,
    type: 'internal_error',
    name: 'MailInfrastructureError',
    message: 'The mail infrastructure could not be reached.',
    description:
      "A DNS server or mail server that the operation depends on did not answer or answered with an error. `vendor_code` carries that system's code verbatim (a DNS error such as `ETIMEOUT`, or an SMTP reply code). Nothing was changed; retry with exponential back-off.",
  },

  E05004: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'DocsIndexUnavailable',
    message: 'Documentation search is temporarily unavailable.',
    description: 'The documentation index is being built or cannot be reached. Retry shortly.',
  },
  E06001: {
    status: 409,
    type: 'conflict_error',
    name: 'KeyAlreadyRevoked',
    message: 'The key is already revoked.',
    description:
      'Revoking is final and happens once; the key was revoked earlier (see its `revoked_at`).',
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

  E06004: {
    status: 409,
    type: 'conflict_error',
    name: 'WebhookTooManySecrets',
    message: 'The endpoint already has 5 valid signing secrets.',
    description:
      'After a rotation the previous secret keeps signing for 24 hours, and an endpoint holds at most 5 valid secrets. Wait until the oldest one expires, then rotate again.',
  },
  E06005: {
    status: 409,
    type: 'conflict_error',
    name: 'WebhookEndpointPaused',
    message: 'The endpoint is paused.',
    description:
      'A paused endpoint receives nothing, replays included. Re-enable it with `PATCH /v1/webhooks/{webhook_id}` and `status: active`, then replay what it missed.',
  },
  E06006: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyExists',
    message: 'A contact property with this key already exists.',
    description:
      'Keys are unique within a workspace, archived properties included. Unarchive the existing one, or choose another key.',
  },
  E06007: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyArchived',
    message: 'The contact property is already archived.',
    description: 'Archiving happens once; unarchive it with `POST .../unarchive` to use it again.',
  },
  E06008: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyNotArchived',
    message: 'The contact property is not archived.',
    description: 'Only an archived property can be unarchived.',
  },
  E06009: {
    status: 409,
    type: 'conflict_error',
    name: 'ContactPropertyLimit',
    message: 'The workspace already has 200 contact properties.',
    description:
      'A workspace holds at most 200 contact properties, archived ones included (their keys stay reserved and their stored values readable).',
  },
  E07001: {
    status: 429,
    type: 'rate_limit_error',
    name: 'RateLimited',
    message: 'Too many requests for this rate-limit group; wait for the window to reset.',
    description:
      "Your organization spent the quota of the operation's rate-limit group (named in the `RateLimit` header) for the current one-minute window. Wait for the number of seconds in `Retry-After`, then retry; pace requests with the `RateLimit` header's `r` (remaining) and `t` (seconds to reset).",
  },
  E07002: {
    status: 429,
    type: 'rate_limit_error',
    name: 'OnboardingDomainLimit',
    message: 'The shared onboarding domain allows only a few messages a day per workspace.',
    description:
      'Mail from the shared onboarding domain is for trying the platform: each workspace may send `EMAIL_ONBOARDING_DAILY_LIMIT` messages from it per UTC day (100 by default). Verify a sending domain of your own to send more. `Retry-After` gives the seconds until the next UTC day.',
  },

  E09001: {
    status: 500,
    type: 'internal_error',
    name: 'InternalError',
    message: 'An unexpected error occurred.',
    description:
      'Something failed on our side. The failure is logged with the `request_id`; quote it when you report the problem. Retry with exponential back-off.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ErrorCatalog;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ErrorCatalog, value);
}
