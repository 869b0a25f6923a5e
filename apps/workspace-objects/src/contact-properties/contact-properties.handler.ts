import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { ContactSubjects } from '@switchboard/contracts';
import type {
  CreateContactPropertyRequest,
  UpdateContactPropertyRequest,
} from '@switchboard/contracts';
import type { PageRequest } from '@switchboard/persistence';
import { Handles, requestContextOf } from '@switchboard/platform';
import { ContactPropertiesService } from './contact-properties.service';

/** Transport handlers of contact properties; the gateway has validated every payload's shape. */
@Controller()
export class ContactPropertiesHandler {
  constructor(private readonly properties: ContactPropertiesService) {}

  @Handles(ContactSubjects.ListProperties)
  list(@Payload() input: PageRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.list(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.CreateProperty)
  create(@Payload() input: CreateContactPropertyRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.create(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.GetProperty)
  get(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.get(requestContextOf(context), input.property_id);
  }

  @Handles(ContactSubjects.UpdateProperty)
  update(@Payload() input: UpdateContactPropertyRequest, @Ctx() context: BaseRpcContext) {
    return this.properties.update(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.ArchiveProperty)
  archive(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.setArchived(requestContextOf(context), input.property_id, true);
  }

  @Handles(ContactSubjects.UnarchiveProperty)
  unarchive(@Payload() input: { property_id: string }, @Ctx() context: BaseRpcContext) {
    return this.properties.setArchived(requestContextOf(context), input.property_id, false);
  }
}
