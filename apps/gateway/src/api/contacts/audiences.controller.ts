import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ContactSubjects } from '@switchboard/contracts';
import type { Audience, RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  AudienceContactsDto,
  CreateAudienceDto,
  ListAudiencesQuery,
  UpdateAudienceDto,
} from './contacts.dto';

const audiences = { tag: 'Audiences', auth: 'api' } as const;

/** Static audiences and their members, answered by the workspace-objects service. */
@Controller('v1/audiences')
export class AudiencesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...audiences,
    summary: 'List audiences, newest first (q: name substring)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListAudiencesQuery,
    response: { status: 200, description: 'A page of audiences' },
  })
  list(@ValidQuery() query: ListAudiencesQuery, @CallContext() context: RequestContext) {
    return this.services.send(ContactSubjects.ListAudiences, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...audiences,
    summary: 'Create a static audience',
    role: 'write',
    rateLimit: 'write',
    body: CreateAudienceDto,
    response: { status: 201, description: 'The audience' },
  })
  create(
    @ValidBody() body: CreateAudienceDto,
    @CallContext() context: RequestContext,
  ): Promise<Audience> {
    return this.services.send(
      ContactSubjects.CreateAudience,
      {
        name: body.name,
        ...(body.description === undefined ? {} : { description: body.description }),
      },
      context,
    );
  }

  @Get(':audience_id')
  @Route({
    ...audiences,
    summary: 'Get an audience',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The audience' },
  })
  get(@Param('audience_id') id: string, @CallContext() context: RequestContext): Promise<Audience> {
    return this.services.send(ContactSubjects.GetAudience, { audience_id: id }, context);
  }

  @Patch(':audience_id')
  @Route({
    ...audiences,
    summary: "Rename an audience or change its description (null clears it; the name can't be)",
    role: 'write',
    rateLimit: 'write',
    body: UpdateAudienceDto,
    response: { status: 200, description: 'The audience' },
  })
  update(
    @Param('audience_id') id: string,
    @ValidBody() body: UpdateAudienceDto,
    @CallContext() context: RequestContext,
  ): Promise<Audience> {
    return this.services.send(
      ContactSubjects.UpdateAudience,
      { audience_id: id, ...body },
      context,
    );
  }

  @Delete(':audience_id')
  @HttpCode(204)
  @Route({
    ...audiences,
    summary: 'Delete an audience and its memberships; contacts stay',
    role: 'write',
    rateLimit: 'write',
  })
  async remove(
    @Param('audience_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(ContactSubjects.DeleteAudience, { audience_id: id }, context);
  }

  @Get(':audience_id/contacts')
  @Route({
    ...audiences,
    summary: "List an audience's members, most recently joined first (q: email or phone digits)",
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListAudiencesQuery,
    response: { status: 200, description: 'A page of members: contact and joined_at' },
  })
  members(
    @Param('audience_id') id: string,
    @ValidQuery() query: ListAudiencesQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(ContactSubjects.ListMembers, { ...query, audience_id: id }, context);
  }

  @Post(':audience_id/contacts')
  @HttpCode(204)
  @Route({
    ...audiences,
    summary: 'Add up to 1,000 contacts (members keep their join time; any unknown id: 422)',
    role: 'write',
    rateLimit: 'write',
    body: AudienceContactsDto,
  })
  async add(
    @Param('audience_id') id: string,
    @ValidBody() body: AudienceContactsDto,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(
      ContactSubjects.AddMembers,
      { audience_id: id, contact_ids: body.contact_ids },
      context,
    );
  }

  @Post(':audience_id/contacts/remove')
  @HttpCode(204)
  @Route({
    ...audiences,
    summary: 'Remove up to 1,000 contacts from the audience (any unknown id: 422)',
    role: 'write',
    rateLimit: 'write',
    body: AudienceContactsDto,
  })
  async removeMany(
    @Param('audience_id') id: string,
    @ValidBody() body: AudienceContactsDto,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(
      ContactSubjects.RemoveMembers,
      { audience_id: id, contact_ids: body.contact_ids },
      context,
    );
  }

  @Delete(':audience_id/contacts/:contact_id')
  @HttpCode(204)
  @Route({
    ...audiences,
    summary: "End one contact's membership (204 also when it was not a member)",
    role: 'write',
    rateLimit: 'write',
  })
  async removeOne(
    @Param('audience_id') id: string,
    @Param('contact_id') contactId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(
      ContactSubjects.RemoveMember,
      { audience_id: id, contact_id: contactId },
      context,
    );
  }
}
