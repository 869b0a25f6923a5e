import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of inbound WhatsApp messages' media, reactions and read receipts. */
export const WhatsAppInteractionsErrorCatalog = {
  E01095: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppReactionNotOneEmoji',
    message: 'A reaction must be exactly one emoji.',
    description:
      'WhatsApp takes exactly one emoji per reaction, so `emoji` must be a single emoji as the character itself: one grapheme (a joined emoji such as a family or a flag counts as one, whatever its code points) that is an emoji. Text, two emoji, or an empty value are refused before anything is sent. To take a reaction back, call `DELETE /v1/whatsapp/messages/{message_id}/reaction` instead of sending an empty value. `param` is `emoji`.',
  },
  E01096: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppReactionOnOutboundMessage',
    message: 'Reactions are placed on messages the contact sent, not on ones this workspace sent.',
    description:
      'A reaction of yours goes on an inbound message (one the contact sent you). Placing one on a message this workspace sent is not supported, so removing one from such a message is refused on the same grounds. Find the inbound messages with `GET /v1/whatsapp/messages?direction=inbound`.',
  },
  E01097: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppReadReceiptNotInbound',
    message: 'Only an inbound WhatsApp message can be marked read.',
    description:
      'A read receipt tells the contact that you read what they sent, so it applies to inbound messages only. A message this workspace sent is read by the contact, which its `read_at` and the `whatsapp.read` event report.',
  },
  E01098: {
    status: 409,
    type: 'conflict_error',
    name: 'WhatsAppMediaNotReady',
    message: 'The media is still being fetched from WhatsApp; retry in a few seconds.',
    description:
      'Inbound media is fetched from WhatsApp right after the message arrives, usually within seconds; until it is stored there is nothing to serve. The message and its media `id` are already readable. Retry the request after a short wait (a few seconds, backing off); a fetch WhatsApp keeps refusing ends as `WhatsAppMediaUnavailable` (E04090).',
  },
  E01099: {
    status: 403,
    type: 'permission_error',
    name: 'WhatsAppMediaLinkExpired',
    message: 'This media link has expired; request a new one.',
    description:
      'The link `GET /v1/whatsapp/messages/{message_id}/media/{media_id}` redirects to is valid for 15 minutes and needs no credentials, which is why it does not last. Call that operation again (with your API key) for a fresh link; the media stays available for 30 days after the message arrived.',
  },
  E04086: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppProviderIdExpired',
    message: 'The WhatsApp message can no longer be resolved at WhatsApp.',
    description:
      'Reactions and read receipts address a message at WhatsApp by its provider id, which is kept for 15 days after the message arrived; the message itself stays readable for 30. Past those 15 days (or for a message that never reached WhatsApp), a reaction or a read receipt cannot be sent, although WhatsApp itself would accept one for up to 30 days.',
  },
  E04087: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppMediaNotFound',
    message: 'The message has no media with this id.',
    description:
      "`media_id` is the `id` of the message's `image`, `video`, `audio`, `sticker` or `document` (a `waf_` id), and only inbound messages have stored media: an outbound message's media is the URL its sender supplied.",
  },
  E04088: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppMediaLinkInvalid',
    message: 'This media link is not valid.',
    description:
      'The link was not issued by this platform, or was altered. Media links come from `GET /v1/whatsapp/messages/{message_id}/media/{media_id}`, which redirects to one; use them as given.',
  },
  E04089: {
    status: 410,
    type: 'gone_error',
    name: 'WhatsAppMediaExpired',
    message: 'The media has expired.',
    description:
      "Inbound media is kept for 30 days after the message arrived, then its bytes are deleted. The message still lists the media's `mime_type` and `caption`.",
  },
  E04090: {
    status: 404,
    type: 'not_found_error',
    name: 'WhatsAppMediaUnavailable',
    message: 'The media could not be retrieved from WhatsApp.',
    description:
      "The platform fetches inbound media from WhatsApp once the message arrives, retrying temporary failures with back-off. This one could not be retrieved (WhatsApp refused it, no longer had it, or its checksum did not match what WhatsApp declared), so there is nothing to serve; the message's media carries no `url`. Ask the contact to send the file again.",
  },
} as const satisfies Record<string, ErrorDefinition>;

export const WhatsAppInteractionsErrors = codesOf(WhatsAppInteractionsErrorCatalog);
