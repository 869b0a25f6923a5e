import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { WhatsAppMessageSubjects } from '@switchboard/contracts';
import type { RequestContext, WhatsAppEventList, WhatsAppMessage } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { ListWhatsAppEventsQuery, ListWhatsAppMessagesQuery } from './whatsapp-messages.dto';
import { SendWhatsAppMessageDto } from './whatsapp-send.dto';

const messages = { tag: 'WhatsApp messages', auth: 'api' } as const;

/**
 * WhatsApp messages (SDK: `bird.whatsapp` send, get, list, listEvents), answered by the
 * sms-whatsapp service. A send's shape is checked here (the DTO refuses unknown fields); its
 * content, sender, template and service-window rules are the service's.
 */
@Controller('v1/whatsapp/messages')
export class WhatsAppMessagesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(202)
  @Route({
    ...messages,
    summary:
      'Send a WhatsApp message (one content kind): 202 accepted; 422 for content, sender, template and a closed 24-hour window, before anything is stored',
    role: 'write',
    rateLimit: 'whatsapp_send',
    body: SendWhatsAppMessageDto,
    response: { status: 202, description: 'The message, status accepted' },
  })
  send(
    @ValidBody() body: SendWhatsAppMessageDto,
    @CallContext() context: RequestContext,
  ): Promise<WhatsAppMessage> {
    return this.services.send(WhatsAppMessageSubjects.SendMessage, { body }, context);
  }

  @Get()
  @Route({
    ...messages,
    summary:
      'List messages newest first (kept 30 days): status, direction, to, from, phone_number (deprecated), bsuid, category, tag (all must match), created_after, created_before',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListWhatsAppMessagesQuery,
    response: { status: 200, description: 'A page of messages' },
  })
  list(@ValidQuery() query: ListWhatsAppMessagesQuery, @CallContext() context: RequestContext) {
    return this.services.send(
      WhatsAppMessageSubjects.ListMessages,
      {
        limit: query.limit,
        starting_after: query.starting_after,
        ending_before: query.ending_before,
        created_after: query.created_after,
        created_before: query.created_before,
        status: query.status,
        direction: query.direction,
        to: query.to,
        from: query.from,
        phone_number: query.phone_number,
        bsuid: query.bsuid,
        category: query.category,
        tag: query.tag,
      },
      context,
    );
  }

  @Get(':whatsapp_message_id')
  @Route({
    ...messages,
    summary: 'Get a message: its content, status, read receipt and failure detail',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The message' },
  })
  get(
    @Param('whatsapp_message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<WhatsAppMessage> {
    return this.services.send(
      WhatsAppMessageSubjects.GetMessage,
      { message_id: messageId },
      context,
    );
  }

  @Get(':whatsapp_message_id/events')
  @Route({
    ...messages,
    summary: "A message's whole timeline, oldest first (optional type filter); not paginated",
    role: 'read',
    rateLimit: 'read',
    query: ListWhatsAppEventsQuery,
    response: { status: 200, description: '{data: [WhatsAppEvent...]}' },
  })
  events(
    @Param('whatsapp_message_id') messageId: string,
    @ValidQuery() query: ListWhatsAppEventsQuery,
    @CallContext() context: RequestContext,
  ): Promise<WhatsAppEventList> {
    return this.services.send(
      WhatsAppMessageSubjects.ListEvents,
      { message_id: messageId, type: query.type },
      context,
    );
  }
}
