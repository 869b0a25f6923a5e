import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { SmsSubjects } from '@switchboard/contracts';
import type { RequestContext, SmsBatchReply, SmsEvent, SmsMessage } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ListSmsEventsQuery,
  ListSmsMessagesQuery,
  SendSmsBatchDto,
  SendSmsMessageDto,
} from './sms.dto';

const messages = { tag: 'SMS messages', auth: 'api' } as const;

/**
 * SMS messages (SDK: `bird.sms`), answered by the sms-whatsapp service. A send's shape is checked
 * here (the DTO refuses unknown fields); every rule of its values and its sender is the
 * service's, which answers every problem in one 422.
 */
@Controller('v1/sms')
export class SmsMessagesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('messages')
  @HttpCode(202)
  @Route({
    ...messages,
    summary:
      'Send an SMS: 202 with the message accepted; 422 names every invalid field; 503 when no carrier is configured',
    role: 'write',
    rateLimit: 'sms_send',
    body: SendSmsMessageDto,
    response: {
      status: 202,
      description: 'The message, status accepted (or rejected when the recipient opted out)',
    },
    errors: [503],
  })
  send(
    @ValidBody() body: SendSmsMessageDto,
    @CallContext() context: RequestContext,
  ): Promise<SmsMessage> {
    return this.services.send(SmsSubjects.SendMessage, { body }, context);
  }

  @Post('batches')
  @HttpCode(202)
  @Route({
    ...messages,
    summary:
      'Send up to 100 independent SMS: all are validated first, and one invalid item rejects the batch naming messages[i]',
    role: 'write',
    rateLimit: 'sms_batch',
    body: SendSmsBatchDto,
    response: {
      status: 202,
      description: '{data: [SmsMessage...] in submission order, summary: {accepted_count}}',
    },
    errors: [503],
  })
  sendBatch(
    @ValidBody() body: SendSmsBatchDto,
    @CallContext() context: RequestContext,
  ): Promise<SmsBatchReply> {
    return this.services.send(SmsSubjects.SendBatch, { body }, context);
  }

  @Get('messages')
  @Route({
    ...messages,
    summary:
      'List messages newest first (kept 30 days): direction, status, error_code, category, to, from, tag (name or name:value, all must match), created_after, created_before',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListSmsMessagesQuery,
    response: { status: 200, description: 'A page of messages' },
  })
  list(@ValidQuery() query: ListSmsMessagesQuery, @CallContext() context: RequestContext) {
    return this.services.send(
      SmsSubjects.ListMessages,
      {
        limit: query.limit,
        starting_after: query.starting_after,
        ending_before: query.ending_before,
        created_after: query.created_after,
        created_before: query.created_before,
        direction: query.direction,
        status: query.status,
        error_code: query.error_code,
        category: query.category,
        to: query.to,
        from: query.from,
        tag: query.tag,
      },
      context,
    );
  }

  @Get('messages/:sms_message_id')
  @Route({
    ...messages,
    summary: 'Get a message: its status, segments and failure detail',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The message' },
  })
  get(
    @Param('sms_message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<SmsMessage> {
    return this.services.send(SmsSubjects.GetMessage, { message_id: messageId }, context);
  }

  @Get('messages/:sms_message_id/events')
  @Route({
    ...messages,
    summary: "A message's whole event timeline, oldest first (optional type filter)",
    role: 'read',
    // A list, whole in one answer: the list quota, like every page of a list.
    rateLimit: 'api_list',
    query: ListSmsEventsQuery,
    response: { status: 200, description: '{data: [SmsEvent...]}' },
  })
  events(
    @Param('sms_message_id') messageId: string,
    @ValidQuery() query: ListSmsEventsQuery,
    @CallContext() context: RequestContext,
  ): Promise<{ data: SmsEvent[] }> {
    return this.services.send(
      SmsSubjects.ListEvents,
      { message_id: messageId, type: query.type },
      context,
    );
  }
}
