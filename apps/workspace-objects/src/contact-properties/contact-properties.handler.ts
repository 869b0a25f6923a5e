import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { ContactSubjects } from '@switchboard/contracts';
import type {
  CreateContactPropertyRequest,
  UpdateContactPropertyRequest,
} from '@switchboard/contracts';
import type { PageRequest } from '@switchboard/persistence';
import { requestContextOf } from '@switchboard/platform';
import { ContactPropertiesService } from './contact-properties.service';

/** Transport handlers of contact properties; the gateway has validated every payload's shape. */
@Controller()
export class ContactPropertiesHandler {
  constructor(private readonly properties: ContactPropertiesService) {}

  @MessagePattern(ContactSubjects.ListProperties)
  list(@Payload() input: PageRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.list(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.CreateProperty)
  create(@Payload() input: CreateContactPropertyRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.create(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.GetProperty)
  get(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.get(requestContextOf(context), input.property_id);
  }

  @MessagePattern(ContactSubjects.UpdateProperty)
  update(@Payload() input: UpdateContactPropertyRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.update(requestContextOf(context), input);
  }

  @MessagePattern(ContactSubjects.ArchiveProperty)
  archive(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.setArchived(requestContextOf(context), input.property_id, true);
  }

  @MessagePattern(ContactSubjects.UnarchiveProperty)
  unarchive(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.setArchived(requestContextOf(context), input.property_id, false);
  }
}
