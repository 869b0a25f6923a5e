import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/** Error codes of a WhatsApp send's content: its kind, its recipient and the rules of each arm. */
export const WhatsAppContentErrorCatalog = {
  E01060: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppContentRequired',
    message: 'The message carries no content: give one of the content fields.',
    description:
      'A WhatsApp send carries exactly one kind of content, in one of these fields: `template`, `text`, `image`, `video`, `audio`, `sticker`, `document`, `location`, `interactive` or `contact_cards`. A request with none of them is refused before anything is stored or charged. Outside an open 24-hour customer service window only `template` can be delivered.',
  },
  E01061: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppContentAmbiguous',
    message: 'The message carries more than one kind of content.',
    description:
      'A WhatsApp message carries exactly one kind of content. A request naming two or more of `template`, `text`, `image`, `video`, `audio`, `sticker`, `document`, `location`, `interactive` and `contact_cards` is refused; `details` names each of them. A caption belongs on the media field itself (`image.caption`), not in a separate `text`.',
  },
  E01062: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppInvalidRecipient',
    message: 'The recipient is neither a phone number in E.164 nor a business-scoped user ID.',
    description:
      '`to` addresses one WhatsApp user: a phone number in E.164 with its country code (`+31612345678`; spaces, dots, dashes and parentheses are ignored and the number is stored in canonical E.164), or the business-scoped user ID Meta reports for a user whose number you do not have (two capital letters, a dot and the ID, for example `US.13491208655302741918`). A username cannot address a message. Anything else, or no `to` at all, is refused before anything is stored.',
  },
  E01063: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppRecipientNotSupportedForTemplate',
    message: 'This template must be sent to a phone number, not a business-scoped user ID.',
    description:
      'One-time-passcode (authentication) templates are delivered to a phone number only: WhatsApp does not accept them for a business-scoped user ID. Send to the phone number in E.164; if you only have the user ID, ask for the number first with an `interactive` message of type `request_contact_info` inside the customer service window.',
  },
  E01064: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppInteractiveLimitExceeded',
    message: 'The interactive message offers more options than WhatsApp allows.',
    description:
      'WhatsApp caps what one interactive message can offer: a `button` message at most 3 `quick_reply` buttons; a `list` at most 10 rows across all its sections combined (and at most 10 sections); a `carousel` at most 10 cards, each with one `cta_url` button or at most 3 `quick_reply` buttons. `param` names the list that is too long; nothing is stored.',
  },
  E01065: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppInteractiveDuplicateLabel',
    message: 'Two options of the interactive message carry the same label.',
    description:
      "The recipient's reply is shown to them by the label they tapped, so every label must be unique: the buttons of a `button` message, the rows of a `list` across all its sections (not merely within a section), and the buttons of one carousel card. `details` names each repeated label's field.",
  },
  E01066: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppInteractiveCarouselButtonsMismatch',
    message: 'The cards of the carousel do not carry the same buttons.',
    description:
      'Every card of a `carousel` must carry the same kinds of button in the same number: either one `cta_url` button on every card, or the same number (1 to 3) of `quick_reply` buttons on every card. `details` names each card that differs from the first.',
  },
  E01067: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppTemplateParameterMismatch',
    message: 'The parameters do not match what the template declares.',
    description:
      "A template send fills the template's placeholders: one `components` entry per part that has placeholders (`header`, `body`, one `button` per button whose value varies, `carousel` with one entry per card), each with as many `parameters` as the part declares, of the kind it declares (`text` for a text placeholder, `image`, `video`, `gif`, `document` or `location` for a media header). A positional template takes its values in `{{n}}` order and no `name`; a template with named parameters needs each parameter's `name`, every declared name exactly once. A part the template has no slot for is refused too (a `quick_reply` button takes no value). `details` names each problem; nothing is sent or charged.",
  },
  E01068: {
    status: 422,
    type: 'validation_error',
    name: 'WhatsAppContentInvalid',
    message: 'The content breaks a rule of its kind.',
    description:
      "Each kind of content has WhatsApp's rules: `text.body` 1 to 4,096 characters; media `url` a public `https` address WhatsApp can fetch (not a private or local host), `caption` at most 1,024 characters, a document's `filename` at most 240; `location` latitude -90 to 90 and longitude -180 to 180; `interactive` `body_text` at most 1,024 characters (4,096 on a `list`), `footer_text` and a text header at most 60, button labels at most 20, row labels at most 24 and descriptions at most 72, reply slugs at most 256 (200 on a row), a header a `list` can take only as text and a `carousel` or request kind not at all; at most 5 `contact_cards`, each with `name.formatted_name` and at least one other part of the name, and a `birthday` as a real `YYYY-MM-DD` date. `details` names every field that breaks a rule, by its path (`interactive.list.sections[0].rows[2].text`); nothing is stored.",
  },
} satisfies Record<string, ErrorDefinition>;

export const WhatsAppContentErrors = codesOf(WhatsAppContentErrorCatalog);
