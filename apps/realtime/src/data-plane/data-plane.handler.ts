import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { RealtimeSubjects } from '@switchboard/contracts';
import type {
  GetRealtimeChannelRequest,
  ListRealtimeChannelsRequest,
  PublishRealtimeBatchRequest,
  PublishRealtimeEventRequest,
  RealtimeMemberRequest,
  SendRealtimeMemberEventRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { DataPlaneService } from './data-plane.service';

/** Transport handlers of the realtime data plane; the gateway has validated every payload's shape. */
@Controller()
export class DataPlaneHandler {
  constructor(private readonly dataPlane: DataPlaneService) {}

  @Handles(RealtimeSubjects.Publish)
  publish(@Payload() input: PublishRealtimeEventRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.publish(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.PublishBatch)
  publishBatch(@Payload() input: PublishRealtimeBatchRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.publishBatch(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.ListChannels)
  listChannels(@Payload() input: ListRealtimeChannelsRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.listChannels(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.GetChannel)
  getChannel(@Payload() input: GetRealtimeChannelRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.getChannel(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.ListMembers)
  listMembers(@Payload() input: GetRealtimeChannelRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.listMembers(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.SendMemberEvent)
  sendMemberEvent(
    @Payload() input: SendRealtimeMemberEventRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.dataPlane.sendMemberEvent(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.DisconnectMember)
  disconnectMember(@Payload() input: RealtimeMemberRequest, @Ctx() context: BaseRpcContext) {
    return this.dataPlane.disconnectMember(requestContextOf(context), input);
  }
}
