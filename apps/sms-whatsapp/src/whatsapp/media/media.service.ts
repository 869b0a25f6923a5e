import { Inject, Injectable } from '@nestjs/common';
import {
  WHATSAPP_MEDIA_CHUNK_BYTES,
  WHATSAPP_MEDIA_LINK_TTL_MS,
  WhatsAppInteractionsErrors,
  WhatsAppMessagesErrors,
} from '@switchboard/contracts';
import type {
  RequestContext,
  WhatsAppMediaChunk,
  WhatsAppMediaLink,
  WhatsAppMediaLinkRequest,
} from '@switchboard/contracts';
import { AppError, workspaceOf } from '@switchboard/platform';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { MediaLinks } from './media-links';
import { MediaRepository } from './media.repository';
import type { MediaRow } from './media.repository';

const Errors = WhatsAppInteractionsErrors;

/**
 * Inbound media as the API serves it: the authenticated route answers a link on the gateway's
 * public origin, valid 15 minutes; the link itself is the credential of the bytes behind it.
 */
@Injectable()
export class MediaService {
  private readonly links: MediaLinks;

  constructor(
    private readonly repository: MediaRepository,
    @Inject(SMS_WHATSAPP_CONFIG) config: SmsWhatsappConfig,
  ) {
    this.links = new MediaLinks(config.ENCRYPTION_KEY);
  }

  async link(
    context: RequestContext,
    request: WhatsAppMediaLinkRequest,
  ): Promise<WhatsAppMediaLink> {
    const workspaceId = workspaceOf(context);
    const media = await this.repository.find(workspaceId, request.message_id, request.media_id);
    if (!media) {
      const direction = await this.repository.messageDirection(workspaceId, request.message_id);
      throw new AppError(
        direction ? Errors.WhatsAppMediaNotFound : WhatsAppMessagesErrors.WhatsAppMessageNotFound,
      );
    }
    servable(media);
    const expiresAt = Date.now() + WHATSAPP_MEDIA_LINK_TTL_MS;
    const origin = (context.publicOrigin ?? '').replace(/\/+$/, '');
    return {
      url: `${origin}/media/whatsapp/${this.links.sign(media.id, expiresAt)}`,
      expires_at: new Date(expiresAt).toISOString(),
    };
  }

  /** One chunk of the bytes behind a link; the link is checked again on every chunk. */
  async read(token: string, offset: number): Promise<WhatsAppMediaChunk> {
    const check = this.links.check(token);
    if (!check.valid)
      throw new AppError(
        check.reason === 'expired'
          ? Errors.WhatsAppMediaLinkExpired
          : Errors.WhatsAppMediaLinkInvalid,
      );
    const media = await this.repository.findForLink(check.mediaId);
    if (!media) throw new AppError(Errors.WhatsAppMediaLinkInvalid);
    servable(media);
    const size = Number(media.size_bytes ?? 0);
    const start = Math.min(Math.max(0, Math.floor(offset)), size);
    const bytes =
      start < size
        ? await this.repository.chunk(media.id, start, WHATSAPP_MEDIA_CHUNK_BYTES)
        : Buffer.alloc(0);
    // Expired by the retention job between the two reads.
    if (!bytes) throw new AppError(Errors.WhatsAppMediaExpired);
    return {
      mime_type: media.mime_type ?? 'application/octet-stream',
      filename: media.filename,
      size_bytes: size,
      offset: start,
      data: bytes.toString('base64'),
    };
  }
}

/** Throws the reason a media row has nothing to serve (yet, or any more). */
function servable(media: MediaRow): void {
  if (media.status === 'expired' || media.expires_at.getTime() <= Date.now())
    throw new AppError(Errors.WhatsAppMediaExpired);
  if (media.status === 'pending')
    throw new AppError(Errors.WhatsAppMediaNotReady, { headers: { 'retry-after': '2' } });
  if (media.status === 'failed') throw new AppError(Errors.WhatsAppMediaUnavailable);
}
