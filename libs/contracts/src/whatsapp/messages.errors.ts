import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of WhatsApp messages: the sender, the service window, quoted replies, reads. */
export const WhatsAppMessagesErrorCatalog = {
  E01080: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppSenderRequired',
    message: 'Name the WhatsApp number to send from in `from`.',
    description:
      'Every WhatsApp send, free-form content of any kind or a template your workspace authored, goes out from a business number you name in `from`, in E.164 (`+31612345678`): one of the numbers of `GET /v1/whatsapp/numbers`. There is no default sender. Only a Bird-managed template picks its own number, and this platform has none, so a send without `from` is refused and nothing is stored. `param` names `from`.',
  },
  E01081: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppSenderNotFound',
    message: 'The workspace has no WhatsApp number with this phone number.',
    description:
      '`from` must be a WhatsApp number this workspace connected (`GET /v1/whatsapp/numbers`; connect one with `POST /workspaces/{workspace_id}/connectors`), in E.164. A number of another workspace, or one never connected, is refused and nothing is stored. `param` names `from`.',
  },
  E01082: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppSenderNotConnected',
    message: 'The WhatsApp number has not finished connecting.',
    description:
      'The workspace holds this number, but its status is not `connected`: its registration with Meta is still pending, failed, or the number was disconnected or banned. `GET /v1/whatsapp/numbers/{number_id}` shows its `status` and, where there is one, `error` and the next step. Nothing is stored. `param` names `from`.',
  },
  E01083: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppSenderWABAMismatch',
    message: 'The template belongs to a different WhatsApp Business Account than the sender.',
    description:
      "A template lives in one WhatsApp Business Account (its `waba`), and Meta sends it only from that account's numbers. The number named in `from` sits on another account of this workspace. Send from a number of the template's account (`GET /v1/whatsapp/numbers` shows each number's `waba`), or use the template of the same name in the sender's account. Nothing is stored. `details` names `from` and `template`.",
  },
  E01084: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppServiceWindowClosed',
    message: 'Free-form content needs an open 24-hour service window: send a template.',
    description:
      "WhatsApp delivers free-form content (text, media, location, interactive, contact cards) only within 24 hours of the contact's last message or call to the sending number: the customer-service window. No inbound message from this contact to this number arrived in the last 24 hours, so the send is refused before anything is created or charged. Send an approved template instead (`template`), which WhatsApp delivers at any time; the contact's reply opens the window again. A window that closes after the send was accepted makes the message fail later with `last_error.code` `service_window_expired`.",
  },
  E01085: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppReplyNotInConversation',
    message: 'The quoted message cannot be quoted by this send.',
    description:
      '`in_reply_to_message_id` quotes a message of the same conversation: one this workspace sent from the `from` number to the `to` contact, or received from that contact on that number. The message named belongs to another conversation, or never reached WhatsApp (it failed or was rejected before Meta took it), so WhatsApp has nothing to render. Nothing is stored. `param` names `in_reply_to_message_id`.',
  },
  E04080: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppMessageNotFound',
    message: 'The WhatsApp message does not exist.',
    description:
      'No WhatsApp message with this ID exists in the workspace of the credential. Messages and their timelines are kept 30 days.',
  },
  E04081: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppReplyTargetNotFound',
    message: 'The message to quote does not exist, or is too old to quote.',
    description:
      "`in_reply_to_message_id` names no message this workspace holds, or one older than 15 days: WhatsApp's message ids are kept 15 days, and a quote needs one. Nothing is stored. `param` names `in_reply_to_message_id`.",
  },
} satisfies Record<string, ErrorDefinition>;

export const WhatsAppMessagesErrors = codesOf(WhatsAppMessagesErrorCatalog);
