import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Res } from '@nestjs/common';
import { WhatsAppInteractionsSubjects as Subjects } from '@switchboard/contracts';
import type {
  RequestContext,
  WhatsAppReactionAccepted,
  WhatsAppReadReceipt,
} from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ListWhatsAppReactionEventsQuery,
  MarkWhatsAppReadDto,
  SetWhatsAppReactionDto,
} from './whatsapp-interactions.dto';

const interactions = { tag: 'WhatsApp messages', auth: 'api' } as const;

/**
 * Read receipts, reactions and inbound media of WhatsApp messages (SDK: `bird.whatsapp.markRead`,
 * `bird.whatsapp.reaction`, `bird.whatsapp.messages.media`), answered by the sms-whatsapp service.
 */
@Controller('v1/whatsapp/messages/:whatsapp_message_id')
export class WhatsAppInteractionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('read')
  @HttpCode(202)
  @Route({
    ...interactions,
    summary:
      'Mark an inbound message read, optionally with a typing indicator: 202 accepted (sent to WhatsApp from a queue); 422 for an outbound message; 404 past the 15 days provider ids are kept',
    role: 'write',
    rateLimit: 'write',
    body: MarkWhatsAppReadDto,
    response: { status: 202, description: '{typing_indicator}' },
  })
  markRead(
    @Param('whatsapp_message_id') messageId: string,
    @ValidBody() body: MarkWhatsAppReadDto | undefined,
    @CallContext() context: RequestContext,
  ): Promise<WhatsAppReadReceipt> {
    return this.services.send(
      Subjects.MarkRead,
      { message_id: messageId, typing_indicator: body?.typing_indicator },
      context,
    );
  }

  @Put('reaction')
  @HttpCode(202)
  @Route({
    ...interactions,
    summary:
      "Place (or replace) this workspace's reaction on an inbound message: exactly one emoji; 202 with the reaction-log entry, sent to WhatsApp from a queue",
    role: 'write',
    rateLimit: 'write',
    body: SetWhatsAppReactionDto,
    response: { status: 202, description: '{id, emoji}' },
  })
  setReaction(
    @Param('whatsapp_message_id') messageId: string,
    @ValidBody() body: SetWhatsAppReactionDto,
    @CallContext() context: RequestContext,
  ): Promise<WhatsAppReactionAccepted> {
    return this.services.send(
      Subjects.SetReaction,
      { message_id: messageId, emoji: body.emoji as string },
      context,
    );
  }

  @Delete('reaction')
  @HttpCode(202)
  @Route({
    ...interactions,
    summary:
      "Take this workspace's reaction back: 202 whether or not one stood (idempotent); the removal is sent to WhatsApp from a queue",
    role: 'write',
    rateLimit: 'write',
    response: { status: 202, description: 'No body' },
  })
  async removeReaction(
    @Param('whatsapp_message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(Subjects.RemoveReaction, { message_id: messageId }, context);
  }

  @Get('reaction-events')
  @Route({
    ...interactions,
    summary:
      "Every change to the message's reactions, newest first (kept 30 days from the message): received, sent, failed or rejected",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListWhatsAppReactionEventsQuery,
    response: { status: 200, description: 'A page of reaction events' },
  })
  listReactionEvents(
    @Param('whatsapp_message_id') messageId: string,
    @ValidQuery() query: ListWhatsAppReactionEventsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      Subjects.ListReactionEvents,
      {
        message_id: messageId,
        limit: query.limit,
        starting_after: query.starting_after,
        ending_before: query.ending_before,
      },
      context,
    );
  }

  @Get('media/:media_id')
  @HttpCode(302)
  @Route({
    ...interactions,
    summary:
      "302 to a link for an inbound message's media, valid 15 minutes and fetched without credentials; 409 while it is still being fetched from WhatsApp, 410 after its 30 days",
    role: 'read',
    rateLimit: 'read',
    response: { status: 302, description: 'Location: the media link' },
    errors: [409, 410],
  })
  async media(
    @Param('whatsapp_message_id') messageId: string,
    @Param('media_id') mediaId: string,
    @CallContext() context: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const link = await this.services.send(
      Subjects.MediaLink,
      { message_id: messageId, media_id: mediaId },
      context,
    );
    void reply.header('location', link.url).header('cache-control', 'no-store');
  }
}
