import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of the platform's link to Meta's WhatsApp Cloud API (the Graph API). */
export const WhatsAppGraphErrorCatalog = {
  E05007: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'WhatsAppGraphUnavailable',
    message: "Meta's WhatsApp Cloud API could not be reached; try again later.",
    description:
      "An operation that needs an answer from Meta's WhatsApp Cloud API at once (connecting a number, syncing templates, fetching inbound media) did not get one: Meta answered 429 or 5xx, did not answer within the time-out, or could not be connected to, and a few quick retries did not help. Nothing was changed on this side. Retry with exponential back-off; Meta's own outages usually last minutes. Messages you send are not affected this way: they are accepted and sent once Meta answers again.",
  },
  E05008: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'WhatsAppNotConfigured',
    message: 'WhatsApp is not configured on this deployment: WHATSAPP_ACCESS_TOKEN is unset.',
    description:
      "This deployment has no access token for Meta's WhatsApp Cloud API, so it cannot connect numbers, sync templates or send WhatsApp messages, and refuses them before anything is stored. Operators: create a system user in Meta Business Manager with the `whatsapp_business_management` and `whatsapp_business_messaging` permissions, generate its token, set it as `WHATSAPP_ACCESS_TOKEN` and restart the sms-whatsapp service (see the guide on how the platform talks to Meta).",
  },
  E05009: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'WhatsAppGraphTokenRefused',
    message: "Meta refused this deployment's WhatsApp access token.",
    description:
      "Meta's WhatsApp Cloud API answered 401 (OAuthException, code 190) to this deployment's `WHATSAPP_ACCESS_TOKEN`: the token expired, was revoked, or its system user lost access to the business account. Nothing was changed. Operators: generate a new system-user token with the `whatsapp_business_management` and `whatsapp_business_messaging` permissions, set it as `WHATSAPP_ACCESS_TOKEN` and restart the sms-whatsapp service.",
  },
} satisfies Record<string, ErrorDefinition>;

export const WhatsAppGraphErrors = codesOf(WhatsAppGraphErrorCatalog);
