import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppConnectSubjects } from '@switchboard/contracts';
import type { CreateConnectorRequest, ListChannelGroupsRequest } from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { ChannelGroupsService } from './channel-groups.service';
import { ConnectService } from './connect.service';

/** Transport handlers of the workspace API's connectors and channel groups. */
@Controller()
export class ConnectorsHandler {
  constructor(
    private readonly connect: ConnectService,
    private readonly groups: ChannelGroupsService,
  ) {}

  @Handles(WhatsAppConnectSubjects.CreateConnector)
  create(@Payload() input: CreateConnectorRequest, @Ctx() context: BaseRpcContext) {
    return this.connect.create(requestContextOf(context), input);
  }

  @Handles(WhatsAppConnectSubjects.ListChannelGroups)
  listChannelGroups(@Payload() input: ListChannelGroupsRequest, @Ctx() context: BaseRpcContext) {
    return this.groups.list(requestContextOf(context), input);
  }
}
