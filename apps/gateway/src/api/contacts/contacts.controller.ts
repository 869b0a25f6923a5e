import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ContactSubjects } from '@switchboard/contracts';
import type { Contact, ContactUpsertResultItem, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  ContactBatchDto,
  CreateContactDto,
  ListContactsQuery,
  UpdateContactDto,
} from './contacts.dto';

const contacts = { tag: 'Contacts', auth: 'api' } as const;

/** The workspace's contacts (reference section 3), answered by the workspace-objects service. */
@Controller('v1/contacts')
export class ContactsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...contacts,
    summary:
      'List contacts, newest first: exact email, phone_number (up to 50) or external_id, q substring, identifier; each with its audiences',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListContactsQuery,
    response: { status: 200, description: 'A page of contacts' },
  })
  list(@ValidQuery() query: ListContactsQuery, @CallContext() context: RequestContext) {
    return this.services.send(ContactSubjects.ListContacts, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...contacts,
    summary: 'Create a contact with an email, a phone number or both (each unique: 409)',
    role: 'write',
    rateLimit: 'write',
    body: CreateContactDto,
    response: { status: 201, description: 'The contact' },
    errors: [404],
  })
  create(
    @ValidBody() body: CreateContactDto,
    @CallContext() context: RequestContext,
  ): Promise<Contact> {
    return this.services.send(ContactSubjects.CreateContact, { fields: { ...body } }, context);
  }

  @Post('batch')
  @HttpCode(200)
  @Route({
    ...contacts,
    summary:
      'Create or update up to 1,000 contacts: a result per entry in submission order; a bad entry fails alone',
    role: 'write',
    rateLimit: 'write',
    body: ContactBatchDto,
    bodyLimit: 'large',
    response: { status: 200, description: 'One result per entry: created, updated or failed' },
    errors: [404],
  })
  batch(
    @ValidBody() body: ContactBatchDto,
    @CallContext() context: RequestContext,
  ): Promise<{ data: ContactUpsertResultItem[] }> {
    return this.services.send(ContactSubjects.UpsertContacts, { ...body }, context);
  }

  @Get(':contact_id')
  @Route({
    ...contacts,
    summary: 'Get a contact',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The contact' },
  })
  get(@Param('contact_id') id: string, @CallContext() context: RequestContext): Promise<Contact> {
    return this.services.send(ContactSubjects.GetContact, { contact_id: id }, context);
  }

  @Patch(':contact_id')
  @Route({
    ...contacts,
    summary:
      'Update a contact: only what is sent changes, data merges (null removes a key), an identifier always remains',
    role: 'write',
    rateLimit: 'write',
    body: UpdateContactDto,
    response: { status: 200, description: 'The contact' },
  })
  update(
    @Param('contact_id') id: string,
    @ValidBody() body: UpdateContactDto,
    @CallContext() context: RequestContext,
  ): Promise<Contact> {
    return this.services.send(
      ContactSubjects.UpdateContact,
      { contact_id: id, changes: { ...body } },
      context,
    );
  }

  @Delete(':contact_id')
  @HttpCode(204)
  @Route({
    ...contacts,
    summary: 'Delete a contact and its audience memberships (suppressions are kept)',
    role: 'write',
    rateLimit: 'write',
  })
  async remove(
    @Param('contact_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(ContactSubjects.DeleteContact, { contact_id: id }, context);
  }
}
