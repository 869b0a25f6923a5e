import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { ContactSubjects } from '@switchboard/contracts';
import type {
  AudienceMembersRequest,
  CreateAudienceRequest,
  ListAudienceMembersRequest,
  ListAudiencesRequest,
  UpdateAudienceRequest,
} from '@switchboard/contracts';
import { requestContextOf } from '@switchboard/platform';
import { AudiencesService } from './audiences.service';

/** Transport handlers of audiences; the gateway has validated every payload's shape. */
@Controller()
export class AudiencesHandler {
  constructor(private readonly audiences: AudiencesService) {}

  @MessagePattern(ContactSubjects.ListAudiences)
  list(@Payload() input: ListAudiencesRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.list(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.CreateAudience)
  create(@Payload() input: CreateAudienceRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.create(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.GetAudience)
  get(@Payload() input: { audience_id: string }, @Ctx() context: BaseRpcContext) {
    return this.audiences.get(requestContextOf(context), input.audience_id);
  }

  @MessagePattern(ContactSubjects.UpdateAudience)
  update(@Payload() input: UpdateAudienceRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.update(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.DeleteAudience)
  remove(@Payload() input: { audience_id: string }, @Ctx() context: BaseRpcContext) {
    return this.audiences.remove(requestContextOf(context), input.audience_id);
  }

  @MessagePattern(ContactSubjects.ListMembers)
  members(@Payload() input: ListAudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.members(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.AddMembers)
  add(@Payload() input: AudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.changeMembers(requestContextOf(context), input, 'add');
  }

  @MessagePattern(ContactSubjects.RemoveMembers)
  removeMany(@Payload() input: AudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.changeMembers(requestContextOf(context), input, 'remove');
  }

  @MessagePattern(ContactSubjects.RemoveMember)
  removeOne(
    @Payload() input: { audience_id: string; contact_id: string },
    @Ctx() context: BaseRpcContext,
  ) {
    return this.audiences.removeMember(
      requestContextOf(context),
      input.audience_id,
      input.contact_id,
    );
  }
}
