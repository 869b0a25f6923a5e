import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { ContactSubjects } from '@switchboard/contracts';
import type {
  ContactFields,
  ListContactsRequest,
  UpdateContactRequest,
  UpsertContactsRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { ContactsService } from './contacts.service';

/** Transport handlers of contacts; the gateway has validated every payload's shape. */
@Controller()
export class ContactsHandler {
  constructor(private readonly contacts: ContactsService) {}

  @Handles(ContactSubjects.ListContacts)
  list(@Payload() input: ListContactsRequest, @Ctx() context: BaseRpcContext) {
    return this.contacts.list(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.CreateContact)
  create(@Payload() input: { fields: ContactFields }, @Ctx() context: BaseRpcContext) {
    return this.contacts.create(requestContextOf(context), input.fields);
  }

  @Handles(ContactSubjects.UpsertContacts)
  upsert(@Payload() input: UpsertContactsRequest, @Ctx() context: BaseRpcContext) {
    return this.contacts.upsert(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.GetContact)
  get(@Payload() input: { contact_id: string }, @Ctx() context: BaseRpcContext) {
    return this.contacts.get(requestContextOf(context), input.contact_id);
  }

  @Handles(ContactSubjects.UpdateContact)
  update(@Payload() input: UpdateContactRequest, @Ctx() context: BaseRpcContext) {
    return this.contacts.update(requestContextOf(context), input);
  }

  @Handles(ContactSubjects.DeleteContact)
  remove(@Payload() input: { contact_id: string }, @Ctx() context: BaseRpcContext) {
    return this.contacts.remove(requestContextOf(context), input.contact_id);
  }
}
