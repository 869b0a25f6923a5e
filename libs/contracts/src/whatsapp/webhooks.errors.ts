import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of Meta's webhook endpoint (`GET|POST /webhooks/whatsapp`). */
export const WhatsAppWebhookErrorCatalog = {
  E01090: {
    status: 400,
    type: 'bad_request_error',
    name: 'WhatsAppWebhookBodyInvalid',
    message: 'The signed webhook body is not a UTF-8 JSON object.',
    description:
      "`POST /webhooks/whatsapp` takes Meta's `whatsapp_business_account` payloads, which are always UTF-8 JSON objects. The signature was right, so the body was signed with the app secret, but it is not one: it is refused and nothing is recorded, since the platform could never apply it. Seeing this from Meta means something between Meta and the platform (a proxy, a body rewriter) changes the body; seeing it from your own tests means the test signs something that is not a payload.",
  },
  E02010: {
    status: 401,
    type: 'auth_error',
    name: 'WhatsAppWebhookSignatureMissing',
    message: 'The webhook has no X-Hub-Signature-256 header.',
    description:
      'Every webhook POST must carry `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body keyed with the Meta app secret (`WHATSAPP_APP_SECRET`). Meta always sends it; a POST without it did not come from Meta and nothing of it is recorded.',
  },
  E02011: {
    status: 401,
    type: 'auth_error',
    name: 'WhatsAppWebhookSignatureInvalid',
    message: 'The webhook signature does not match its body.',
    description:
      "`X-Hub-Signature-256` must be `sha256=` followed by the hex HMAC-SHA256 of the exact bytes of the body, keyed with the Meta app secret. Nothing of a webhook whose signature does not match is recorded. From Meta this means `WHATSAPP_APP_SECRET` is not the secret of the app subscribed to the business account (App settings > Basic > App secret in Meta's App Dashboard), or that something between Meta and the platform changed the body. Meta retries the webhook, so once the secret is fixed the retries are accepted.",
  },
  E02012: {
    status: 401,
    type: 'auth_error',
    name: 'WhatsAppWebhookSecretUnset',
    message: 'The platform has no Meta app secret to verify webhooks with.',
    description:
      "The platform's operator has not set `WHATSAPP_APP_SECRET`, so no webhook signature can be verified and every webhook POST is refused, nothing recorded. Set it to the Meta app's secret and restart the sms-whatsapp service; Meta retries refused webhooks for a while, so those sent meanwhile are not all lost.",
  },
  E03010: {
    status: 403,
    type: 'permission_error',
    name: 'WhatsAppWebhookVerifyTokenMismatch',
    message: 'The verify token does not match.',
    description:
      "Meta's subscription challenge (`GET /webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=...&hub.challenge=...`) is answered only when `hub.verify_token` equals the platform's `WHATSAPP_VERIFY_TOKEN`. Enter the same value in the Verify token field of the webhook configuration in Meta's App Dashboard.",
  },
  E03011: {
    status: 403,
    type: 'permission_error',
    name: 'WhatsAppWebhookChallengeInvalid',
    message: 'This is not a subscription challenge.',
    description:
      "`GET /webhooks/whatsapp` answers Meta's subscription challenge only: `hub.mode` must be `subscribe` and `hub.challenge` must be present (Meta sends both). The verify token is not compared for such a request.",
  },
  E03012: {
    status: 403,
    type: 'permission_error',
    name: 'WhatsAppWebhookVerifyTokenUnset',
    message: 'The platform has no verify token to answer the challenge with.',
    description:
      "The platform's operator has not set `WHATSAPP_VERIFY_TOKEN`, so no subscription challenge can be answered. Choose a random value, set it as `WHATSAPP_VERIFY_TOKEN`, restart the sms-whatsapp service and enter the same value as the Verify token in Meta's App Dashboard.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export const WhatsAppWebhookErrors = codesOf(WhatsAppWebhookErrorCatalog);
