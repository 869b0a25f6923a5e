import type { MetaInboundMessage } from '../webhooks/meta-webhook';

/** Meta's media kinds: the ones whose bytes are fetched and kept. */
export const MEDIA_KINDS = ['image', 'video', 'audio', 'sticker', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What one inbound message stores and emits, in the SDK's shapes. */
export interface InboundContent {
  /** The content field the message carries: `text`, `image`, ..., `interactive_reply`, `unsupported`. */
  kind: string;
  /** The SDK's object of that field (media without `id` yet: the sink gives it its `waf_` id). */
  content: Record<string, unknown> | Array<Record<string, unknown>>;
  interactiveReply: Record<string, unknown> | null;
  unsupported: { type: string } | null;
  /** Meta's media to fetch, when the content is a media kind. */
  media: {
    metaMediaId: string;
    mimeType: string | null;
    sha256: string | null;
    filename: string | null;
  } | null;
}

/**
 * Meta's inbound message as the SDK's content. The content helper's `fromGraphInbound`
 * (`../content/`) is the one mapping of the area; this is the sink's reading until it lands.
 */
export function inboundContentOf(message: MetaInboundMessage): InboundContent {
  const none = { interactiveReply: null, unsupported: null, media: null };
  if (message.type === 'text' && message.text)
    return { ...none, kind: 'text', content: { body: message.text.body } };
  if (isMediaKind(message.type) && message[message.type]) {
    const media = message[message.type]!;
    const content: Record<string, unknown> = {};
    if (media.mime_type) content.mime_type = media.mime_type;
    if (media.caption !== undefined) content.caption = media.caption;
    if (message.type === 'audio' && message.audio?.voice !== undefined)
      content.voice = message.audio.voice;
    if (message.type === 'sticker' && message.sticker?.animated !== undefined)
      content.animated = message.sticker.animated;
    const filename = message.type === 'document' ? (message.document?.filename ?? null) : null;
    if (filename !== null) content.filename = filename;
    return {
      ...none,
      kind: message.type,
      content,
      media: {
        metaMediaId: media.id,
        mimeType: media.mime_type ?? null,
        sha256: media.sha256 ?? null,
        filename,
      },
    };
  }
  if (message.type === 'location' && message.location)
    return { ...none, kind: 'location', content: { ...message.location } };
  if (message.type === 'contacts' && message.contacts)
    return { ...none, kind: 'contact_cards', content: message.contacts };
  const reply = interactiveReplyOf(message);
  if (reply) return { ...none, kind: 'interactive_reply', content: reply, interactiveReply: reply };
  const unsupported = { type: message.type };
  return { ...none, kind: 'unsupported', content: unsupported, unsupported };
}

function interactiveReplyOf(message: MetaInboundMessage): Record<string, unknown> | null {
  const button = message.interactive?.button_reply;
  if (button) return { type: 'button', button: { slug: button.id, text: button.title } };
  const row = message.interactive?.list_reply;
  if (row) {
    const list: Record<string, unknown> = { slug: row.id, text: row.title };
    if (row.description !== undefined) list.description = row.description;
    return { type: 'list', list };
  }
  // A template's quick-reply button: its payload is the button's label (the SDK's `slug`).
  if (message.type === 'button' && message.button) {
    const text = message.button.text ?? message.button.payload ?? '';
    return { type: 'button', button: { slug: message.button.payload ?? text, text } };
  }
  return null;
}

function isMediaKind(type: string): type is MediaKind {
  return (MEDIA_KINDS as readonly string[]).includes(type);
}
