import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of connecting WhatsApp numbers (connectors, channel groups, numbers, accounts). */
export const WhatsAppConnectErrorCatalog = {
  E01040: {
    status: 422,
    type: 'bad_request_error',
    name: 'UnsupportedConnectorTemplate',
    message: 'This connector template cannot be connected here.',
    description:
      '`connectorTemplateRef` names a connector template this platform does not connect. The only template is `whatsapp`: a WhatsApp number of a WhatsApp Business Account, given by `wabaId`, `phoneId` and `phoneNumber` (or migrated from the legacy channel source with `isCpMigrated`).',
  },
  E01041: {
    status: 422,
    type: 'bad_request_error',
    name: 'LegacyAccessKeyRejected',
    message: 'The legacy channel source refused the access key.',
    description:
      'The legacy channel source (`CP_URL`) answered 401 or 403 to `cpAccessKey` when the platform read its channels to migrate `cpChannelId`. Check the key with the legacy platform and send the connector again. Nothing was connected.',
  },
  E01042: {
    status: 422,
    type: 'bad_request_error',
    name: 'WhatsAppPhoneNumberMismatch',
    message: 'The phone number is not the one WhatsApp holds under this phone number ID.',
    description:
      'WhatsApp reports another phone number (`display_phone_number`) for `phoneId` than the `phoneNumber` given. Check both in WhatsApp Manager (Phone numbers) and send the connector again. Nothing was connected.',
  },
  E04070: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppNumberNotFound',
    message: 'The WhatsApp number does not exist.',
    description:
      'No WhatsApp number with this ID (`wan_`) is connected in the workspace of the credential. Numbers are connected with `POST /workspaces/{workspace_id}/connectors`; list them with `GET /v1/whatsapp/numbers`.',
  },
  E04071: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppBusinessAccountNotFound',
    message: 'The WhatsApp Business Account does not exist.',
    description:
      'No WhatsApp Business Account with this ID (`waa_`) or Meta WABA ID is connected in the workspace of the credential. An account is connected with its first number; list them with `GET /v1/whatsapp/business-accounts`.',
  },
  E04072: {
    status: 404,
    type: 'not_found_error',
    name: 'LegacyChannelNotFound',
    message: 'The legacy channel source holds no WhatsApp channel with this ID.',
    description:
      'A connector with `isCpMigrated` names in `cpChannelId` a channel the legacy channel source (`CP_URL`) does not list among the WhatsApp channels `cpAccessKey` can read. Check the channel ID and the key. Nothing was connected.',
  },
  E05010: {
    status: 422,
    type: 'bad_request_error',
    name: 'WhatsAppConnectRefused',
    message: 'WhatsApp refused to connect the number.',
    description:
      "Meta's Cloud API refused a step of connecting the number (registering it, subscribing the app to the account, or reading either). `vendor_code` carries Meta's error code verbatim (for example 133005, a wrong two-step verification PIN; 100, an ID Meta does not know or the app may not use) and the message Meta's own words. Nothing was connected; fix the cause and send the connector again.",
  },
  E05012: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'LegacyChannelSourceUnavailable',
    message: 'The legacy channel source is unavailable.',
    description:
      'The legacy channel source (`CP_URL`) could not be reached, timed out, or answered with a 5xx or an unreadable list while a channel was being migrated. Nothing was connected; retry with exponential back-off.',
  },
  E05013: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'LegacyChannelSourceNotConfigured',
    message: 'This deployment has no legacy channel source to migrate from.',
    description:
      'A connector with `isCpMigrated` reads its channel from the legacy channel source, which the operator configures with the `CP_URL` setting; it is not set on this deployment. Connect the number with `wabaId`, `phoneId` and `phoneNumber` instead, or ask the operator to set `CP_URL`.',
  },
  E06020: {
    status: 409,
    type: 'conflict_error',
    name: 'WhatsAppNumberHeldElsewhere',
    message: 'Another workspace holds this WhatsApp number.',
    description:
      "WhatsApp's webhooks are routed by Meta's phone number ID, so one number is connected to one workspace at a time. `phoneId` is connected in another workspace; disconnect it there first. Nothing was connected.",
  },
  E06021: {
    status: 409,
    type: 'conflict_error',
    name: 'WhatsAppBusinessAccountHeldElsewhere',
    message: 'Another workspace holds this WhatsApp Business Account.',
    description:
      "WhatsApp's webhooks are routed by the WhatsApp Business Account, so one account is connected to one workspace at a time. `wabaId` is connected in another workspace; connect its numbers there, or disconnect it there first. Nothing was connected.",
  },
  E06022: {
    status: 409,
    type: 'conflict_error',
    name: 'WhatsAppNumberAccountMismatch',
    message: 'The number is connected under another WhatsApp Business Account.',
    description:
      'This workspace already holds `phoneId` under a different WhatsApp Business Account than `wabaId`. A number belongs to one account; send the connector with the account it is connected under.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export const WhatsAppConnectErrors = codesOf(WhatsAppConnectErrorCatalog);
