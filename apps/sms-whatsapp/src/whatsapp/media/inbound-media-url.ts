import type { WhatsAppMessage } from '@switchboard/contracts';

const MEDIA_FIELDS = ['image', 'video', 'audio', 'sticker', 'document'] as const;

/** The stored file id (`waf_`) of an inbound message's media, if it has some. */
export function inboundMediaIdOf(message: WhatsAppMessage): string | undefined {
  if (message.direction !== 'inbound') return undefined;
  for (const field of MEDIA_FIELDS) {
    const id = message[field]?.id;
    if (id) return id;
  }
  return undefined;
}

/**
 * An inbound message with its media's `url`: the API route that redirects to the stored bytes
 * (`GET /v1/whatsapp/messages/{id}/media/{media_id}`, fetched with the API key), on the gateway's
 * public origin. The SDK leaves `url` absent when the file could not be retrieved from WhatsApp
 * (`unavailable`); it stays after the bytes expire, and answers 410 from then on.
 */
export function withInboundMediaUrl(
  message: WhatsAppMessage,
  publicOrigin: string,
  unavailable: ReadonlySet<string>,
): WhatsAppMessage {
  const mediaId = inboundMediaIdOf(message);
  if (!mediaId || unavailable.has(mediaId)) return message;
  const url = inboundMediaUrl(publicOrigin, message.id, mediaId);
  const result: Record<string, unknown> = { ...message };
  for (const field of MEDIA_FIELDS)
    if (message[field]?.id === mediaId) result[field] = { ...message[field], url };
  return result as WhatsAppMessage;
}

/** The API route of an inbound message's media on the gateway's public origin. */
export function inboundMediaUrl(publicOrigin: string, messageId: string, mediaId: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}/v1/whatsapp/messages/${messageId}/media/${mediaId}`;
}
