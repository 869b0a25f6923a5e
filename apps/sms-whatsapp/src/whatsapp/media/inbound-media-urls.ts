import { Injectable } from '@nestjs/common';
import type { RequestContext, WhatsAppMessage } from '@switchboard/contracts';
import { workspaceOf } from '@switchboard/platform';
import { inboundMediaIdOf, withInboundMediaUrl } from './inbound-media-url';
import { MediaRepository } from './media.repository';

/**
 * Gives the inbound messages a read answers their media's `url` (one query for a whole page):
 * the messages area calls it on `get` and `list` with the request's context, whose public
 * origin the links are built on.
 */
@Injectable()
export class InboundMediaUrls {
  constructor(private readonly media: MediaRepository) {}

  async add(context: RequestContext, messages: WhatsAppMessage[]): Promise<WhatsAppMessage[]> {
    const ids = messages.flatMap((message) => inboundMediaIdOf(message) ?? []);
    if (ids.length === 0 || !context.publicOrigin) return messages;
    const unavailable = await this.media.unavailable(workspaceOf(context), ids);
    const origin = context.publicOrigin;
    return messages.map((message) => withInboundMediaUrl(message, origin, unavailable));
  }
}
