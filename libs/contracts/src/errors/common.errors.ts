import { codesOf } from './error-definition';
import type { ErrorDefinition } from './error-definition';

/** Error codes of every operation: the request, credentials, permissions, services and limits. */
export const CommonErrorCatalog = {
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
    description:
      'Send request bodies as `Content-Type: application/json`, uncompressed (no `Content-Encoding` other than `identity`).',
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
  E01017: {
    status: 422,
    type: 'validation_error',
    name: 'UnsupportedFeature',
    message: 'The request uses a feature this deployment does not offer yet.',
    description:
      '`details[0].param` names the field (for example an `ip_pool_id` other than `ipp_shared`, or a sending-domain feature this deployment does not run). Leave the field out.',
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
  E05005: {
    status: 413,
    type: 'payload_too_large_error',
    name: 'TransportPayloadTooLarge',
    message: 'The request is larger than the message transport of this deployment accepts.',
    description:
      "The body was within the operation's limit, but the message transport between the gateway and the services (NATS, in distributed mode) refuses messages this large: its `max_payload` is set below what the platform needs (21 MB for a 20 MB email). The message names the transport's limit. Nothing was done. Operators: set `max_payload` to 32 MB in the NATS server's configuration (the deployments in this repository do); clients: send less per request until then.",
  },
  E07001: {
    status: 429,
    type: 'rate_limit_error',
    name: 'RateLimited',
    message: 'Too many requests for this rate-limit group; wait for the window to reset.',
    description:
      "Your organization spent the quota of the operation's rate-limit group (named in the `RateLimit` header) for the current one-minute window. Wait for the number of seconds in `Retry-After`, then retry; pace requests with the `RateLimit` header's `r` (remaining) and `t` (seconds to reset).",
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

/** The codes by name, for throw sites: `new AppError(CommonErrors.ValidationError)`. */
export const CommonErrors = codesOf(CommonErrorCatalog);
