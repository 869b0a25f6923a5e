import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { ContactSubjects } from '@switchboard/contracts';
import type {
  AudienceMembersRequest,
  CreateAudienceRequest,
  ListAudienceMembersRequest,
  ListAudiencesRequest,
  SnapshotAudienceMembersRequest,
  UpdateAudienceRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { AudiencesService } from './audiences.service';

/** Transport handlers of audiences; the gateway has validated every payload's shape. */
@Controller()
export class AudiencesHandler {
  constructor(private readonly audiences: AudiencesService) {}

  @Handles(ContactSubjects.ListAudiences)
  list(@Payload() input: ListAudiencesRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.list(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.CreateAudience)
  create(@Payload() input: CreateAudienceRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.create(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.GetAudience)
  get(@Payload() input: { audience_id: string }, @Ctx() context: BaseRpcContext) {
    return this.audiences.get(requestContextOf(context), input.audience_id);
  }

  @Handles(ContactSubjects.UpdateAudience)
  update(@Payload() input: UpdateAudienceRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.update(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.DeleteAudience)
  remove(@Payload() input: { audience_id: string }, @Ctx() context: BaseRpcContext) {
    return this.audiences.remove(requestContextOf(context), input.audience_id);
  }

  @Handles(ContactSubjects.ListMembers)
  members(@Payload() input: ListAudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.members(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.AddMembers)
  add(@Payload() input: AudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.changeMembers(requestContextOf(context), input, 'add');
  }

  @Handles(ContactSubjects.RemoveMembers)
  removeMany(@Payload() input: AudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.changeMembers(requestContextOf(context), input, 'remove');
  }

  @Handles(ContactSubjects.RemoveMember)
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

  @Handles(ContactSubjects.SnapshotMembers)
  snapshot(@Payload() input: SnapshotAudienceMembersRequest, @Ctx() context: BaseRpcContext) {
    return this.audiences.snapshot(requestContextOf(context), input);
  }
}
