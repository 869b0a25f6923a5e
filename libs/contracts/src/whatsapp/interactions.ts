import type { BirdClient, PaginatedPromise } from '@messagebird/sdk';
import type { PageRequest } from '../pagination';

/** Transport subjects of inbound WhatsApp messages' media, reactions and read receipts. */
export const WhatsAppInteractionsSubjects = {
  MarkRead: 'whatsapp.message.mark-read',
  SetReaction: 'whatsapp.reaction.set',
  RemoveReaction: 'whatsapp.reaction.remove',
  ListReactionEvents: 'whatsapp.reaction.list-events',
  /** The signed link `GET /v1/whatsapp/messages/{id}/media/{media_id}` redirects to. */
  MediaLink: 'whatsapp.media.link',
  /** One chunk of the bytes behind a signed link (`GET /media/whatsapp/{token}`). */
  ReadMedia: 'whatsapp.media.read',
} as const;

type ReactionResource = BirdClient['whatsapp']['reaction'];
/** The SDK's shapes (it declares them without exporting them): what its methods resolve to. */
export type WhatsAppReactionAccepted = Awaited<ReturnType<ReactionResource['set']>>;
export type WhatsAppReactionEvent =
  ReturnType<ReactionResource['listEvents']> extends PaginatedPromise<infer T> ? T : never;
export type WhatsAppReadReceipt = Awaited<ReturnType<BirdClient['whatsapp']['markRead']>>;

export interface WhatsAppMarkReadRequest {
  message_id: string;
  typing_indicator?: boolean;
}

export interface WhatsAppSetReactionRequest {
  message_id: string;
  emoji: string;
}

export interface ListWhatsAppReactionEventsRequest extends PageRequest {
  message_id: string;
}

export interface WhatsAppMediaLinkRequest {
  message_id: string;
  media_id: string;
}

/** Where the media route redirects: a link on the gateway's public origin, valid 15 minutes. */
export interface WhatsAppMediaLink {
  url: string;
  expires_at: string;
}

/** The bytes behind a signed link are read in chunks: one transport message has a size cap. */
export interface ReadWhatsAppMediaRequest {
  token: string;
  offset: number;
}

export interface WhatsAppMediaChunk {
  mime_type: string;
  filename: string | null;
  size_bytes: number;
  offset: number;
  /** base64 of the bytes from `offset`, at most `WHATSAPP_MEDIA_CHUNK_BYTES` of them. */
  data: string;
}

/** Bytes per `ReadMedia` chunk: well under the transport's payload cap once base64-encoded. */
export const WHATSAPP_MEDIA_CHUNK_BYTES = 4 * 1024 * 1024;

/** How long a signed media link is valid (the SDK: 15 minutes). */
export const WHATSAPP_MEDIA_LINK_TTL_MS = 15 * 60 * 1000;
