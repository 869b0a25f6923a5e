import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommonErrors, WhatsAppConnectSubjects } from '@switchboard/contracts';
import type { ChannelGroup, Connector, RequestContext, TokenPage } from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CreateConnectorDto, ListChannelGroupsQuery } from './connectors.dto';

const workspaceApi = { tag: 'Workspace API: connectors', auth: 'access_key' } as const;

/**
 * The workspace API's connectors and channel groups (AccessKey auth), answered by the
 * sms-whatsapp service (ADR 0013). The path's workspace must be the access key's: another one
 * is 403, as a mismatching `X-Workspace-Id` is.
 */
@Controller('workspaces/:workspace_id')
export class ConnectorsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('connectors')
  @HttpCode(201)
  @Route({
    ...workspaceApi,
    role: 'write',
    rateLimit: 'write',
    summary:
      "Connect a WhatsApp number: Meta registers it and subscribes the app to its account (or it is migrated from the legacy channel source); 201 with the connector, 200 when the workspace's number was connected already and is refreshed",
    body: CreateConnectorDto,
    response: { status: 201, description: 'The connector' },
    errors: [409, 503],
  })
  async create(
    @Param('workspace_id') workspaceId: string,
    @ValidBody() body: CreateConnectorDto,
    @CallContext() context: RequestContext,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Connector> {
    requireOwnWorkspace(workspaceId, context);
    const result = await this.services.send(
      WhatsAppConnectSubjects.CreateConnector,
      {
        workspace_id: workspaceId,
        region: request.caller?.region ?? '',
        connectorTemplateRef: body.connectorTemplateRef,
        name: body.name,
        arguments: { ...body.arguments },
      },
      context,
    );
    if (!result.created) void reply.status(200);
    return result.connector;
  }

  @Get('channel-groups')
  @Route({
    ...workspaceApi,
    role: 'read',
    rateLimit: 'api_list',
    summary:
      "List the workspace's channel groups (one per WhatsApp Business Account, channelIds its numbers), oldest first; pass nextPageToken back as pageToken",
    query: ListChannelGroupsQuery,
    response: { status: 200, description: '{results, nextPageToken}' },
  })
  listChannelGroups(
    @Param('workspace_id') workspaceId: string,
    @ValidQuery() query: ListChannelGroupsQuery,
    @CallContext() context: RequestContext,
  ): Promise<TokenPage<ChannelGroup>> {
    requireOwnWorkspace(workspaceId, context);
    return this.services.send(
      WhatsAppConnectSubjects.ListChannelGroups,
      { workspace_id: workspaceId, limit: query.limit, pageToken: query.pageToken },
      context,
    );
  }
}

function requireOwnWorkspace(workspaceId: string, context: RequestContext): void {
  if (workspaceId !== context.workspaceId) throw new AppError(CommonErrors.WorkspaceMismatch);
}
