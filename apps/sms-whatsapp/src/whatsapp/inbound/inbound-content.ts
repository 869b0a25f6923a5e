import { newId } from '@switchboard/persistence';
import { fromGraphInbound } from '../content';
import type { MetaInboundMedia, MetaInboundMessage } from '../webhooks/meta-webhook';

const MEDIA_KINDS = ['image', 'video', 'audio', 'sticker', 'document'] as const;
type MediaKind = (typeof MEDIA_KINDS)[number];

/** What one inbound message stores and emits, in the SDK's shapes. */
export interface InboundContent {
  /** The content field the message carries: `text`, `image`, ..., `interactive_reply`, `unsupported`. */
  kind: string;
  /** The value of that field (a media arm carries our `waf_` file id as its `id`). */
  content: unknown;
  interactiveReply: unknown;
  unsupported: unknown;
  /** The wamid the message quotes (`context.id`), matched to our message id by the insert. */
  replyToWamid: string | null;
  /** Meta's media to fetch and keep under our `waf_` id, when the content is a media kind. */
  media: {
    id: string;
    metaMediaId: string;
    mimeType: string | null;
    sha256: string | null;
    filename: string | null;
  } | null;
}

/** Meta's inbound message read by the content area (`fromGraphInbound`), with its media to fetch. */
export function inboundContentOf(message: MetaInboundMessage): InboundContent {
  const metaMedia = mediaOf(message);
  const media = metaMedia && {
    id: newId('waf'),
    metaMediaId: metaMedia.id,
    mimeType: metaMedia.mime_type ?? null,
    sha256: metaMedia.sha256 ?? null,
    filename: message.type === 'document' ? (message.document?.filename ?? null) : null,
  };
  const { content, replyToWamid } = fromGraphInbound(message, { fileId: media?.id });
  const [kind, value] = Object.entries(content)[0] ?? ['unsupported', { type: message.type }];
  return {
    kind,
    content: value,
    interactiveReply: kind === 'interactive_reply' ? value : null,
    unsupported: kind === 'unsupported' ? value : null,
    replyToWamid: replyToWamid ?? null,
    // A media message whose content could not be read (no arm) has nothing to fetch for.
    media: media && kind === message.type ? media : null,
  };
}

function mediaOf(message: MetaInboundMessage): MetaInboundMedia | undefined {
  if (!(MEDIA_KINDS as readonly string[]).includes(message.type)) return undefined;
  const media = message[message.type as MediaKind];
  return typeof media?.id === 'string' && media.id !== '' ? media : undefined;
}
