import { Readable } from 'node:stream';
import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { WhatsAppInteractionsSubjects as Subjects } from '@switchboard/contracts';
import type { RequestContext, WhatsAppMediaChunk } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';

/**
 * The credential-free links `GET /v1/whatsapp/messages/{id}/media/{media_id}` redirects to. The
 * token is the credential (signed, naming one media file, valid 15 minutes); the bytes come from
 * the sms-whatsapp service in chunks, each small enough for one transport message.
 */
@Controller('media/whatsapp')
export class WhatsAppMediaLinksController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get(':media_link')
  @Route({
    tag: 'WhatsApp messages',
    auth: 'none',
    rateLimit: 'none',
    summary:
      'The bytes of inbound WhatsApp media behind a signed link, with their Content-Type; 403 once the link expired, 404 for a link not issued here, 410 after the media expired',
    response: { status: 200, description: 'The media bytes' },
    errors: [403, 404, 410],
  })
  async download(
    @Param('media_link') token: string,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    // The first chunk before any header: a refused link is answered with the error envelope.
    const first = await this.read(token, 0, context);
    void reply
      .header('content-type', first.mime_type)
      .header('content-length', String(first.size_bytes))
      .header('cache-control', 'private, max-age=900')
      // User content on the API's origin: never sniffed, never run as a page.
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('referrer-policy', 'no-referrer');
    if (first.filename)
      void reply.header(
        'content-disposition',
        `inline; filename*=UTF-8''${encodeURIComponent(first.filename)}`,
      );
    return Readable.from(this.chunks(token, first, context));
  }

  private async *chunks(token: string, first: WhatsAppMediaChunk, context: RequestContext) {
    let chunk = first;
    for (;;) {
      const bytes = Buffer.from(chunk.data, 'base64');
      if (bytes.length > 0) yield bytes;
      const next = chunk.offset + bytes.length;
      if (bytes.length === 0 || next >= chunk.size_bytes) return;
      chunk = await this.read(token, next, context);
    }
  }

  private read(token: string, offset: number, context: RequestContext) {
    return this.services.send(Subjects.ReadMedia, { token, offset }, context);
  }
}
