import { Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { RealtimeSubjects } from '@switchboard/contracts';
import type { RealtimeCredentials } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { FastifyRequest } from 'fastify';
import { requestContextFor, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ChannelQuery,
  ChannelsQuery,
  MemberEventDto,
  PublishBatchDto,
  PublishEventDto,
} from './realtime-events.dto';

const events = { tag: 'Realtime events', auth: 'api' } as const;

/** `X-Realtime-Key` and `X-Realtime-Secret` (contract section 4); the service checks them. */
function credentialsOf(request: FastifyRequest): RealtimeCredentials {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : '';
  };
  return { key: header('x-realtime-key'), secret: header('x-realtime-secret') };
}

/**
 * The realtime data plane (spec: Realtime events), answered by the realtime service: publishing
 * to channels, occupancy, presence members, member events and disconnect. Every call carries the
 * app's key and secret beside the API key.
 */
@Controller('v1/realtime/apps/:realtime_app_id')
export class RealtimeEventsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('events')
  @HttpCode(200)
  @Route({
    ...events,
    summary: 'Publish an event to one or more channels',
    role: 'write',
    rateLimit: 'realtime_publish',
    body: PublishEventDto,
    response: { status: 200, description: 'Per-channel counts when `include` asked for them' },
  })
  publish(
    @Param('realtime_app_id') appId: string,
    @ValidBody() body: PublishEventDto,
    @Req() request: FastifyRequest,
  ) {
    return this.services.send(
      RealtimeSubjects.Publish,
      { ...body, realtime_app_id: appId, credentials: credentialsOf(request) },
      requestContextFor(request),
    );
  }

  @Post('batch-events')
  @HttpCode(200)
  @Route({
    ...events,
    summary: 'Publish up to 10 events, each to one channel; one bad event delivers none',
    role: 'write',
    rateLimit: 'realtime_publish',
    body: PublishBatchDto,
    response: { status: 200, description: 'Per-event counts when `include` asked for them' },
  })
  publishBatch(
    @Param('realtime_app_id') appId: string,
    @ValidBody() body: PublishBatchDto,
    @Req() request: FastifyRequest,
  ) {
    return this.services.send(
      RealtimeSubjects.PublishBatch,
      {
        events: body.events.map((item) => ({ ...item })),
        realtime_app_id: appId,
        credentials: credentialsOf(request),
      },
      requestContextFor(request),
    );
  }

  @Get('channels')
  @Route({
    ...events,
    summary: 'List occupied channels (prefix filter, optional counts)',
    role: 'read',
    rateLimit: 'read',
    query: ChannelsQuery,
    response: { status: 200, description: '{data: channels}' },
  })
  listChannels(
    @Param('realtime_app_id') appId: string,
    @ValidQuery() query: ChannelsQuery,
    @Req() request: FastifyRequest,
  ) {
    return this.services.send(
      RealtimeSubjects.ListChannels,
      { ...query, realtime_app_id: appId, credentials: credentialsOf(request) },
      requestContextFor(request),
    );
  }

  @Get('channels/:channel_name')
  @Route({
    ...events,
    summary: 'Get one channel: occupied, and counts on request (unknown channels are unoccupied)',
    role: 'read',
    rateLimit: 'read',
    query: ChannelQuery,
    response: { status: 200, description: '{occupied, counts}' },
  })
  getChannel(
    @Param('realtime_app_id') appId: string,
    @Param('channel_name') channel: string,
    @ValidQuery() query: ChannelQuery,
    @Req() request: FastifyRequest,
  ) {
    return this.services.send(
      RealtimeSubjects.GetChannel,
      {
        ...query,
        channel_name: channel,
        realtime_app_id: appId,
        credentials: credentialsOf(request),
      },
      requestContextFor(request),
    );
  }

  @Get('channels/:channel_name/members')
  @Route({
    ...events,
    summary: 'List the member ids of a presence channel',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: '{members: [{member_id}]}' },
  })
  listMembers(
    @Param('realtime_app_id') appId: string,
    @Param('channel_name') channel: string,
    @Req() request: FastifyRequest,
  ) {
    return this.services.send(
      RealtimeSubjects.ListMembers,
      { channel_name: channel, realtime_app_id: appId, credentials: credentialsOf(request) },
      requestContextFor(request),
    );
  }

  @Post('members/:member_id/events')
  @HttpCode(204)
  @Route({
    ...events,
    summary: 'Send an event to every connection of a signed-in member (best effort, not queued)',
    role: 'write',
    rateLimit: 'realtime_publish',
    body: MemberEventDto,
    response: { status: 204, description: 'Sent to the connections open now' },
  })
  async sendMemberEvent(
    @Param('realtime_app_id') appId: string,
    @Param('member_id') memberId: string,
    @ValidBody() body: MemberEventDto,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.services.send(
      RealtimeSubjects.SendMemberEvent,
      {
        ...body,
        member_id: memberId,
        realtime_app_id: appId,
        credentials: credentialsOf(request),
      },
      requestContextFor(request),
    );
  }

  @Post('members/:member_id/disconnect')
  @HttpCode(204)
  @Route({
    ...events,
    summary: 'Close every connection of a signed-in member (close code 4009)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Disconnected' },
  })
  async disconnectMember(
    @Param('realtime_app_id') appId: string,
    @Param('member_id') memberId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.services.send(
      RealtimeSubjects.DisconnectMember,
      { member_id: memberId, realtime_app_id: appId, credentials: credentialsOf(request) },
      requestContextFor(request),
    );
  }
}
