import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of webhook endpoints and deliveries. */
export const WebhookErrorCatalog = {
  E01020: {
    status: 412,
    type: 'precondition_error',
    name: 'WebhookTestNotPossible',
    message: 'The endpoint cannot be tested.',
    description:
      "A test delivery is signed like a real one and uses the `event_type` given or the endpoint's first subscribed type. It needs a valid signing secret; rotate the secret if every one has expired.",
  },
  E04010: {
    status: 404,
    type: 'not_found_error',
    name: 'WebhookEndpointNotFound',
    message: 'No webhook endpoint with this id exists in this workspace.',
    description:
      "The `webhook_id` is not one of this workspace's endpoints: it was deleted, or it belongs to another workspace. List them with `GET /v1/webhooks`.",
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
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(WebhookErrors.WebhookTestNotPossible)`. */
export const WebhookErrors = codesOf(WebhookErrorCatalog);
