import { phoneNumber } from '@switchboard/contracts';
import type { WhatsAppInboundContent, WhatsAppMessageContent } from '@switchboard/contracts';
import type { MetaInboundMessage } from '../webhooks/meta-webhook';

type ContactCard = NonNullable<WhatsAppMessageContent['contact_cards']>[number];

/** What the caller knows beside Meta's message: the id of the file it stored the media under. */
export interface InboundContext {
  /** Our `waf_` id of the message's media, when it has some (fetched later by the caller). */
  fileId?: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
/** A list of objects; a lone object (some clients send one phone that way) is a list of one. */
const list = (value: unknown): Array<Record<string, unknown>> =>
  Array.isArray(value) ? value.map(record) : value === undefined ? [] : [record(value)];

/** Only the string fields named, as given; undefined when none is present. */
function pick(value: unknown, keys: readonly string[]): Record<string, string> | undefined {
  const source = record(value);
  const picked = Object.fromEntries(
    keys.flatMap((key) => (str(source[key]) === undefined ? [] : [[key, source[key] as string]])),
  );
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/** A received card's label is lowercased (WhatsApp's own vocabulary varies in case). */
const label = (entry: Record<string, unknown>) => {
  const type = str(entry.type);
  return type === undefined ? {} : { type: type.toLowerCase() };
};

/** A shared card, in our shape: numbers normalised to E.164 where they parse, else as they came. */
function contactCard(raw: Record<string, unknown>): ContactCard {
  const name = pick(raw.name, [
    'formatted_name',
    'first_name',
    'middle_name',
    'last_name',
    'prefix',
    'suffix',
  ]);
  const org = pick(raw.org, ['company', 'department', 'title']);
  const phones = list(raw.phones).map((phone) => {
    const waId = str(phone.wa_id);
    const given = str(phone.phone) ?? (waId ? `+${waId}` : undefined);
    const normalised = given === undefined ? undefined : (phoneNumber(given) ?? given);
    return { ...(normalised !== undefined && { phone_number: normalised }), ...label(phone) };
  });
  const emails = list(raw.emails).map((email) => ({ ...pick(email, ['email']), ...label(email) }));
  const urls = list(raw.urls).map((url) => ({ ...pick(url, ['url']), ...label(url) }));
  const addresses = list(raw.addresses).map((address) => ({
    ...pick(address, ['street', 'city', 'state', 'zip', 'country', 'country_code']),
    ...label(address),
  }));
  const birthday = str(raw.birthday);
  return {
    ...(str(raw.origin) !== undefined && { origin: str(raw.origin) }),
    ...(str(raw.vcard) !== undefined && { vcard: str(raw.vcard) }),
    ...(name && { name }),
    ...(org && { org }),
    ...(birthday !== undefined && { birthday }),
    ...(phones.length > 0 && { phone_numbers: phones }),
    ...(emails.length > 0 && { emails }),
    ...(urls.length > 0 && { urls }),
    ...(addresses.length > 0 && { addresses }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const bool = (key: string, value: unknown) => (typeof value === 'boolean' ? { [key]: value } : {});

/** A media arm: our file id, Meta's MIME type, and the named string fields (`caption`, `filename`). */
function media(
  raw: Record<string, unknown>,
  context: InboundContext,
  keys: readonly string[] = [],
) {
  return {
    ...(context.fileId !== undefined && { id: context.fileId }),
    ...pick(raw, ['mime_type', ...keys]),
  };
}

type MediaKind = 'image' | 'video' | 'audio' | 'sticker' | 'document';
const MEDIA_FIELDS: Record<MediaKind, readonly string[]> = {
  image: ['caption'],
  video: ['caption'],
  audio: [],
  sticker: [],
  document: ['caption', 'filename'],
};

function interactiveReply(raw: Record<string, unknown>): WhatsAppMessageContent {
  const type = str(raw.type);
  const button = record(raw.button_reply);
  const row = record(raw.list_reply);
  if (type === 'button_reply' && str(button.id) !== undefined)
    return {
      interactive_reply: {
        type: 'button',
        button: { slug: str(button.id) ?? '', text: str(button.title) ?? '' },
      },
    };
  if (type === 'list_reply' && str(row.id) !== undefined) {
    const description = str(row.description);
    return {
      interactive_reply: {
        type: 'list',
        list: {
          slug: str(row.id) ?? '',
          text: str(row.title) ?? '',
          ...(description !== undefined && { description }),
        },
      },
    };
  }
  return { unsupported: { type: type ?? 'interactive' } };
}

function contentOf(
  message: MetaInboundMessage,
  context: InboundContext,
): WhatsAppMessageContent | undefined {
  const type = message.type;
  const raw: unknown = (message as unknown as Record<string, unknown>)[type];
  switch (type) {
    case 'text': {
      const body = str(record(raw).body);
      return body === undefined ? undefined : { text: { body } };
    }
    case 'image':
    case 'video':
    case 'audio':
    case 'sticker':
    case 'document': {
      if (!isRecord(raw)) return undefined;
      const extra =
        type === 'audio'
          ? bool('voice', raw.voice)
          : type === 'sticker'
            ? bool('animated', raw.animated)
            : {};
      return { [type]: { ...media(raw, context, MEDIA_FIELDS[type]), ...extra } };
    }
    case 'location': {
      const place = record(raw);
      const latitude = num(place.latitude);
      const longitude = num(place.longitude);
      if (latitude === undefined || longitude === undefined) return undefined;
      return { location: { latitude, longitude, ...pick(place, ['name', 'address', 'url']) } };
    }
    case 'contacts':
      return raw === undefined ? undefined : { contact_cards: list(raw).map(contactCard) };
    case 'interactive':
      return isRecord(raw) ? interactiveReply(raw) : undefined;
    case 'button': {
      // A tap on a template's quick-reply button: its payload is the template's own label.
      const button = record(raw);
      const text = str(button.text) ?? str(button.payload);
      if (text === undefined) return undefined;
      return {
        interactive_reply: { type: 'button', button: { slug: str(button.payload) ?? text, text } },
      };
    }
    default:
      return { unsupported: { type } };
  }
}

/**
 * An inbound Meta message as our content arm (`WhatsAppMessage`'s `text`, `image`, ...,
 * `interactive_reply` or `unsupported`), and the wamid it quotes (`context.id`).
 */
export function fromGraphInbound(
  message: MetaInboundMessage,
  context: InboundContext = {},
): WhatsAppInboundContent {
  const content = contentOf(message, context) ?? { unsupported: { type: String(message.type) } };
  const replyToWamid = str(message.context?.id);
  return { content, ...(replyToWamid !== undefined && { replyToWamid }) };
}
