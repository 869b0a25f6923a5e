import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { EmailBroadcastSubjects } from '@switchboard/contracts';
import type { EmailBroadcast, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  CreateEmailBroadcastDto,
  ListEmailBroadcastEventsQuery,
  ListEmailBroadcastRecipientsQuery,
  ListEmailBroadcastsQuery,
  SendEmailBroadcastDto,
  UpdateEmailBroadcastDto,
} from './broadcasts.dto';

const broadcasts = { tag: 'Email broadcasts', auth: 'api' } as const;

/**
 * Email broadcasts (reference section 2), answered by the email service: the shape of each body
 * is checked here, every rule of its values and of the lifecycle there.
 */
@Controller('v1/email/broadcasts')
export class BroadcastsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...broadcasts,
    summary:
      'List broadcasts newest first: status (repeatable), audience_id, tag, q, created_after, created_before',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailBroadcastsQuery,
    response: { status: 200, description: 'A page of broadcasts' },
  })
  list(@ValidQuery() query: ListEmailBroadcastsQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailBroadcastSubjects.List, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...broadcasts,
    summary:
      'Create a broadcast: a draft, or with send true sent now or at scheduled_at (422 and nothing saved when it cannot send)',
    role: 'write',
    rateLimit: 'write',
    body: CreateEmailBroadcastDto,
    response: { status: 201, description: 'The broadcast' },
  })
  create(
    @ValidBody() body: CreateEmailBroadcastDto,
    @CallContext() context: RequestContext,
  ): Promise<EmailBroadcast> {
    return this.services.send(EmailBroadcastSubjects.Create, { body: { ...body } }, context);
  }

  @Get(':broadcast_id')
  @Route({
    ...broadcasts,
    summary: 'Get a broadcast with its exact counters',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The broadcast' },
  })
  get(@Param('broadcast_id') broadcastId: string, @CallContext() context: RequestContext) {
    return this.services.send(EmailBroadcastSubjects.Get, { broadcast_id: broadcastId }, context);
  }

  @Patch(':broadcast_id')
  @Route({
    ...broadcasts,
    summary: 'Update a draft or scheduled broadcast (409 once sending has started)',
    role: 'write',
    rateLimit: 'write',
    body: UpdateEmailBroadcastDto,
    response: { status: 200, description: 'The broadcast' },
    errors: [409],
  })
  update(
    @Param('broadcast_id') broadcastId: string,
    @ValidBody() body: UpdateEmailBroadcastDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailBroadcastSubjects.Update,
      { broadcast_id: broadcastId, body: { ...body } },
      context,
    );
  }

  @Delete(':broadcast_id')
  @HttpCode(204)
  @Route({
    ...broadcasts,
    summary: 'Delete a draft broadcast (409 for any other state: cancel instead)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
    errors: [409],
  })
  async remove(
    @Param('broadcast_id') broadcastId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(EmailBroadcastSubjects.Delete, { broadcast_id: broadcastId }, context);
  }

  @Post(':broadcast_id/send')
  @HttpCode(200)
  @Route({
    ...broadcasts,
    summary: 'Send a draft (or scheduled) broadcast now or at scheduled_at',
    role: 'write',
    rateLimit: 'write',
    body: SendEmailBroadcastDto,
    response: { status: 200, description: 'The broadcast, accepted or scheduled' },
    errors: [409],
  })
  send(
    @Param('broadcast_id') broadcastId: string,
    @ValidBody() body: SendEmailBroadcastDto | undefined,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailBroadcastSubjects.Send,
      {
        broadcast_id: broadcastId,
        ...(body?.scheduled_at ? { scheduled_at: body.scheduled_at } : {}),
      },
      context,
    );
  }

  @Post(':broadcast_id/cancel')
  @HttpCode(200)
  @Route({
    ...broadcasts,
    summary:
      'Cancel a scheduled, accepted or sending broadcast (canceling, then canceled); idempotent',
    role: 'write',
    rateLimit: 'write',
    response: { status: 200, description: 'The broadcast' },
    errors: [409],
  })
  cancel(@Param('broadcast_id') broadcastId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      EmailBroadcastSubjects.Cancel,
      { broadcast_id: broadcastId },
      context,
    );
  }

  @Get(':broadcast_id/counts')
  @Route({
    ...broadcasts,
    summary: 'Audience counts now: total, addressable (has an email), sendable (not suppressed)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The counts' },
  })
  counts(@Param('broadcast_id') broadcastId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      EmailBroadcastSubjects.Counts,
      { broadcast_id: broadcastId },
      context,
    );
  }

  @Get(':broadcast_id/send-quota')
  @Route({
    ...broadcasts,
    summary: 'How much of the broadcast the email send allowance covers',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The send quota' },
  })
  sendQuota(@Param('broadcast_id') broadcastId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      EmailBroadcastSubjects.SendQuota,
      { broadcast_id: broadcastId },
      context,
    );
  }

  @Get(':broadcast_id/events')
  @Route({
    ...broadcasts,
    summary: "List the broadcast's recipient events, oldest first (type filter)",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailBroadcastEventsQuery,
    response: { status: 200, description: 'A page of events' },
  })
  events(
    @Param('broadcast_id') broadcastId: string,
    @ValidQuery() query: ListEmailBroadcastEventsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailBroadcastSubjects.ListEvents,
      { broadcast_id: broadcastId, ...query },
      context,
    );
  }

  @Get(':broadcast_id/recipients')
  @Route({
    ...broadcasts,
    summary: "List the broadcast's recipients (empty until sending starts); to: one address",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailBroadcastRecipientsQuery,
    response: { status: 200, description: 'A page of recipients' },
  })
  recipients(
    @Param('broadcast_id') broadcastId: string,
    @ValidQuery() query: ListEmailBroadcastRecipientsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailBroadcastSubjects.ListRecipients,
      { broadcast_id: broadcastId, ...query },
      context,
    );
  }

  @Get(':broadcast_id/clicked-links')
  @Route({
    ...broadcasts,
    summary: 'The URLs recipients clicked, most clicked first (top 100), with the total',
    role: 'read',
    // A list, whole in one answer: the list quota, like every page of a list.
    rateLimit: 'api_list',
    response: { status: 200, description: '{data, total}' },
  })
  clickedLinks(@Param('broadcast_id') broadcastId: string, @CallContext() context: RequestContext) {
    return this.services.send(
      EmailBroadcastSubjects.ClickedLinks,
      { broadcast_id: broadcastId },
      context,
    );
  }
}
