import { Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ContactSubjects } from '@switchboard/contracts';
import type { ContactProperty, ContactPropertyType, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { PageQuery } from '../../pipeline/http/list-query.dto';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CreateContactPropertyDto, UpdateContactPropertyDto } from './contacts.dto';

const properties = { tag: 'Contact properties', auth: 'api' } as const;

/** Contact properties: the keys and types of contacts' `data`, answered by workspace-objects. */
@Controller('v1/contact-properties')
export class ContactPropertiesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...properties,
    summary: 'List contact properties, newest first, archived ones included',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: PageQuery,
    response: { status: 200, description: 'A page of contact properties' },
  })
  list(@ValidQuery() query: PageQuery, @CallContext() context: RequestContext) {
    return this.services.send(ContactSubjects.ListProperties, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...properties,
    summary: 'Create a contact property: key and type are fixed once created (duplicate key: 409)',
    role: 'write',
    rateLimit: 'write',
    body: CreateContactPropertyDto,
    response: { status: 201, description: 'The contact property' },
  })
  create(
    @ValidBody() body: CreateContactPropertyDto,
    @CallContext() context: RequestContext,
  ): Promise<ContactProperty> {
    return this.services.send(
      ContactSubjects.CreateProperty,
      {
        key: body.key,
        type: body.type as ContactPropertyType,
        ...(body.fallback_value === undefined ? {} : { fallback_value: body.fallback_value }),
      },
      context,
    );
  }

  @Get(':property_id')
  @Route({
    ...properties,
    summary: 'Get a contact property',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The contact property' },
  })
  get(
    @Param('property_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<ContactProperty> {
    return this.services.send(ContactSubjects.GetProperty, { property_id: id }, context);
  }

  @Patch(':property_id')
  @Route({
    ...properties,
    summary: "Change a property's fallback value (null removes it)",
    role: 'write',
    rateLimit: 'write',
    body: UpdateContactPropertyDto,
    response: { status: 200, description: 'The contact property' },
  })
  update(
    @Param('property_id') id: string,
    @ValidBody() body: UpdateContactPropertyDto,
    @CallContext() context: RequestContext,
  ): Promise<ContactProperty> {
    return this.services.send(
      ContactSubjects.UpdateProperty,
      {
        property_id: id,
        ...(body.fallback_value === undefined ? {} : { fallback_value: body.fallback_value }),
      },
      context,
    );
  }

  @Post(':property_id/archive')
  @Route({
    ...properties,
    summary: 'Archive a property: refused in new writes, stored values kept (409 if archived)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 200, description: 'The contact property' },
  })
  @HttpCode(200)
  archive(
    @Param('property_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<ContactProperty> {
    return this.services.send(ContactSubjects.ArchiveProperty, { property_id: id }, context);
  }

  @Post(':property_id/unarchive')
  @Route({
    ...properties,
    summary: 'Unarchive a property (409 if it is not archived)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 200, description: 'The contact property' },
  })
  @HttpCode(200)
  unarchive(
    @Param('property_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<ContactProperty> {
    return this.services.send(ContactSubjects.UnarchiveProperty, { property_id: id }, context);
  }
}
