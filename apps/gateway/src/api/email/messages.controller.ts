import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { EmailSubjects } from '@switchboard/contracts';
import type {
  EmailBatchItem,
  EmailContent,
  EmailMessage,
  ListEmailMessagesRequest,
  RequestContext,
} from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyRequest } from 'fastify';
import { CallContext, requestContextFor, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ListEmailEventsQuery,
  ListEmailMessagesQuery,
  ListEmailRecipientsQuery,
  SendEmailBatchDto,
  SendEmailMessageDto,
} from './messages.dto';
import { OnboardingRecipients } from './onboarding-recipients';

const messages = { tag: 'Email messages', auth: 'api' } as const;

/**
 * A send is slow by its size: the body crosses the transport and is parsed, checked and stored by
 * the email service. Allow 1 ms per KB of body (20 s for 20 MB), never less than the configured
 * time-out: the usual small send keeps it, so a stopped email service is still reported quickly.
 */
const sendTimeout = (request: FastifyRequest) => ({
  timeoutMs: (Number(request.headers['content-length']) || 0) / 1000,
});

/**
 * Email messages (spec: Email messages), answered by the email service. A send's shape is
 * checked here (the DTO refuses unknown fields); every rule of its values, and the sender and
 * recipient rules, are the email service's, which answers every problem in one 422.
 */
@Controller('v1/email')
export class MessagesController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly onboarding: OnboardingRecipients,
  ) {}

  @Post('messages')
  @HttpCode(202)
  @Route({
    ...messages,
    summary:
      'Send an email: 202 with the message accepted (or scheduled with scheduled_at); 422 lists every invalid field',
    role: 'write',
    rateLimit: 'email_send',
    bodyLimit: 'large',
    body: SendEmailMessageDto,
    response: { status: 202, description: 'The message, status accepted or scheduled' },
    errors: [402],
  })
  async send(@Req() request: FastifyRequest): Promise<EmailMessage> {
    const input = await this.onboarding.attach(request.caller?.workspaceId, request.body ?? {});
    return this.services.send(
      EmailSubjects.SendMessage,
      input,
      requestContextFor(request),
      sendTimeout(request),
    );
  }

  @Post('batches')
  @HttpCode(202)
  @Route({
    ...messages,
    summary:
      'Send up to 100 independent messages: all are validated first, and one invalid item rejects the batch naming messages[i]',
    role: 'write',
    rateLimit: 'email_batch',
    bodyLimit: 'large',
    body: SendEmailBatchDto,
    response: {
      status: 202,
      description: '{data: [{id, status, category, ...}]} in submission order',
    },
    errors: [402],
  })
  async sendBatch(@Req() request: FastifyRequest): Promise<{ data: EmailBatchItem[] }> {
    const input = await this.onboarding.attach(request.caller?.workspaceId, request.body ?? {});
    return this.services.send(
      EmailSubjects.SendBatch,
      input,
      requestContextFor(request),
      sendTimeout(request),
    );
  }

  @Get('messages')
  @Route({
    ...messages,
    summary:
      'List messages newest first: created_after (inclusive), created_before (exclusive), status, tag (name or name:value, repeatable), category, to, from',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailMessagesQuery,
    response: { status: 200, description: 'A page of messages, without bodies' },
  })
  list(@ValidQuery() query: ListEmailMessagesQuery, @CallContext() context: RequestContext) {
    const input: ListEmailMessagesRequest = {
      limit: query.limit,
      starting_after: query.starting_after,
      ending_before: query.ending_before,
      created_after: query.created_after,
      created_before: query.created_before,
      status: query.status,
      category: query.category,
      to: query.to,
      from: query.from,
      ...(query.tag?.length ? { tag: query.tag[0], tags: query.tag } : {}),
    };
    return this.services.send(EmailSubjects.ListMessages, input, context);
  }

  @Get('messages/:message_id')
  @Route({
    ...messages,
    summary: 'Get a message with its status and per-state recipient counts (never its bodies)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The message' },
  })
  get(
    @Param('message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<EmailMessage> {
    return this.services.send(EmailSubjects.GetMessage, { message_id: messageId }, context);
  }

  @Post('messages/:message_id/cancel')
  @HttpCode(204)
  @Route({
    ...messages,
    summary: 'Cancel a scheduled message (409 once it started sending or was canceled)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Canceled' },
  })
  async cancel(
    @Param('message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(EmailSubjects.CancelMessage, { message_id: messageId }, context);
  }

  @Get('messages/:message_id/recipients')
  @Route({
    ...messages,
    summary: "List a message's recipients with their status, rejection and bounce detail",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailRecipientsQuery,
    response: { status: 200, description: 'A page of recipients' },
  })
  recipients(
    @Param('message_id') messageId: string,
    @ValidQuery() query: ListEmailRecipientsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailSubjects.ListRecipients,
      { message_id: messageId, ...query },
      context,
    );
  }

  @Get('messages/:message_id/content')
  @Route({
    ...messages,
    summary:
      'Get the stored html and text of a message (425 with Retry-After until processed, 410 once expired, 404 when not stored)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: '{html, text}' },
    errors: [410, 425],
  })
  content(
    @Param('message_id') messageId: string,
    @CallContext() context: RequestContext,
  ): Promise<EmailContent> {
    // A 425 from the service carries Retry-After; the error filter sends it on.
    return this.services.send(EmailSubjects.GetContent, { message_id: messageId }, context);
  }

  @Get('messages/:message_id/events')
  @Route({
    ...messages,
    summary: "List a message's event timeline (optional type filter)",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailEventsQuery,
    response: { status: 200, description: 'A page of events' },
  })
  events(
    @Param('message_id') messageId: string,
    @ValidQuery() query: ListEmailEventsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailSubjects.ListEvents,
      { message_id: messageId, ...query },
      context,
    );
  }
}
