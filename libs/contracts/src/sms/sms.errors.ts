import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of SMS messages (sends, batches, reads). */
export const SmsErrorCatalog = {
  E01022: {
    status: 422,
    type: 'validation_error',
    name: 'SMSNoEligibleSender',
    message: 'A free-text SMS needs a sender: set `from`.',
    description:
      'A free-text send (`text`) is sent from the sender you name in `from`: a number the workspace holds (`GET /v1/numbers`) or an alphanumeric sender registered for it by the operator. There is no default sender, so a send with `text` and no `from` is refused and nothing is stored. `param` names `from` (`messages[i].from` in a batch). A template send picks its sender itself and must not name one.',
  },
  E01023: {
    status: 422,
    type: 'validation_error',
    name: 'SMSInvalidRecipient',
    message: 'The recipient is not a phone number an SMS can be routed to.',
    description:
      'An SMS goes to one phone number in E.164, with its country code (`+14155550100`; spaces, dots, dashes and parentheses are ignored, and the number is stored and returned in canonical E.164). A value that is not a possible number of any country, or is missing, is refused before anything is stored; so is a number no carrier of the deployment routes (every carrier of `SMPP_URL` has destination prefixes, and none matches). `param` names `to` (`messages[i].to` in a batch).',
  },
  E01024: {
    status: 422,
    type: 'validation_error',
    name: 'SMSUnsupportedFeature',
    message: 'The send uses a preview feature that is not available yet.',
    description:
      'These fields of an SMS send are declared ahead of the features behind them and are refused for now, whatever their value: `validity_period`, `media_urls`, `messaging_profile_id`, `scheduled_at`, `broadcast_id`, `campaign_id`, `audience_id`, `contact_id`, `topic_id`, `personalization`, `options.max_price_per_segment`, and `options.track_clicks` set to `true`. Remove the field and send again. `details` names every such field of the request (`messages[i].field` in a batch); nothing is stored.',
  },
  E01025: {
    status: 422,
    type: 'validation_error',
    name: 'SMSBodyTooLong',
    message: 'The body needs more than 12 segments.',
    description:
      'An SMS body may fill at most 12 segments: 1,836 GSM-7 septets (153 per part; each of `^ { } \\ [ ] ~ | €` and form feed costs two) or 804 UTF-16 code units in UCS-2 (67 per part; an emoji outside the Basic Multilingual Plane costs two). One character outside the GSM-7 alphabet makes the whole body UCS-2. The body is never truncated: shorten it, or set `options.smart_encoding` to replace curly quotes, dashes and similar characters with GSM-7 ones. The message gives the segments the body would need.',
  },
  E01026: {
    status: 422,
    type: 'validation_error',
    name: 'SMSTemplateInvalid',
    message: 'The template send is not valid.',
    description:
      "A template send names a template by `template.id` or `template.slug` (`GET /v1/sms/templates`) and fills its variables in `template.parameters`. It is refused when the template does not exist or is not active, when a required variable is missing, when a parameter is not a variable of the template, when a value does not match its variable's format, when the parameters exceed 16 KB serialized, or when the requested `language` is not available and the template does not fall back. `details` names each problem (`template.parameters.<key>`, `template.language`, ...).",
  },
  E01027: {
    status: 422,
    type: 'validation_error',
    name: 'SMSSenderNotConfigured',
    message: 'The sender is not one the workspace holds.',
    description:
      '`from` must be a number the workspace holds with the `sms` capability (an active number of `GET /v1/numbers`; order one with `POST /v1/numbers/orders`), or an alphanumeric sender the operator registered for the workspace (`POST /admin/v1/workspaces/{workspace_id}/sms-senders`). Anything else is refused and nothing is stored. `param` names `from` (`messages[i].from` in a batch).',
  },
  E01028: {
    status: 422,
    type: 'validation_error',
    name: 'SenderCategoryNotPermitted',
    message: 'The sender is not registered for this category.',
    description:
      "An alphanumeric sender is registered for some categories (`transactional`, `marketing`, `authentication`, `service`). A registration for `marketing` covers every category; any other registration covers `transactional`, `authentication` and `service`, so only a `marketing` send from a sender registered without `marketing` is refused; the message lists the categories the sender may use. Send with one of them, or ask the operator to extend the sender's registration.",
  },
  E04059: {
    status: 404,
    type: 'not_found_error',
    name: 'SmsMessageNotFound',
    message: 'The SMS message does not exist.',
    description:
      'No SMS message with this ID exists in the workspace of the credential (messages are kept 30 days).',
  },
  E05006: {
    status: 503,
    type: 'service_unavailable_error',
    name: 'SmsCarrierNotConfigured',
    message: 'No SMS carrier is configured: SMPP_URL names none.',
    description:
      'This deployment has no SMS carrier: its `SMPP_URL` setting is empty, so no message could ever leave and sends are refused before anything is stored. Operators: set `SMPP_URL` to one or more SMPP connections, comma-separated (`smpp://<system_id>:<password>@<host>:<port>`, `ssmpp://` for TLS), and restart the sms-whatsapp service. A configured carrier that is down does not cause this error: messages are accepted and wait for it.',
  },
} satisfies Record<string, ErrorDefinition>;

export const SmsErrors = codesOf(SmsErrorCatalog);
