import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { EmailSubjects } from '@switchboard/contracts';
import type {
  CreateEmailDomainRequest,
  EmailDomain,
  RequestContext,
  UpdateEmailDomainRequest,
} from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { CreateDomainDto, ListDomainsQuery, UpdateDomainDto } from './domains.dto';

const domains = { tag: 'Email domains', auth: 'api' } as const;

/**
 * Sending domains (reference section 5, contract section 6), answered by the email service.
 * `admin` keys manage them; `read` keys may read them.
 */
@Controller('v1/email/domains')
export class DomainsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @Route({
    ...domains,
    summary: 'Register a sending domain: a DKIM key and the DNS records to publish',
    role: 'admin',
    rateLimit: 'write',
    body: CreateDomainDto,
    response: { status: 201, description: 'The domain, status pending, with its dns_records' },
  })
  create(
    @ValidBody() body: CreateDomainDto,
    @CallContext() context: RequestContext,
  ): Promise<EmailDomain> {
    const input: CreateEmailDomainRequest = {
      domain: body.domain,
      return_path: body.return_path && { name: body.return_path.name },
      tracking: body.tracking && { name: body.tracking.name },
      dkim: body.dkim && { mode: body.dkim.mode },
      settings: body.settings && { ...body.settings },
    };
    return this.services.send(EmailSubjects.CreateDomain, input, context);
  }

  @Get()
  @Route({
    ...domains,
    summary: 'List sending domains (name filter, sort, cursor pagination)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListDomainsQuery,
    response: { status: 200, description: 'A page of domains' },
  })
  list(@ValidQuery() query: ListDomainsQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailSubjects.ListDomains, { ...query }, context);
  }

  @Get(':domain_id')
  @Route({
    ...domains,
    summary: 'Get a sending domain with its records and their last check',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The domain' },
  })
  get(
    @Param('domain_id') domainId: string,
    @CallContext() context: RequestContext,
  ): Promise<EmailDomain> {
    return this.services.send(EmailSubjects.GetDomain, { domain_id: domainId }, context);
  }

  @Patch(':domain_id')
  @Route({
    ...domains,
    summary:
      'Update settings or the return path (a new return path on a verified domain is staged until it verifies)',
    role: 'admin',
    rateLimit: 'write',
    body: UpdateDomainDto,
    response: { status: 200, description: 'The domain' },
  })
  update(
    @Param('domain_id') domainId: string,
    @ValidBody() body: UpdateDomainDto,
    @CallContext() context: RequestContext,
  ): Promise<EmailDomain> {
    const input: UpdateEmailDomainRequest = {
      domain_id: domainId,
      settings: body.settings && { ...body.settings },
      return_path: body.return_path && { name: body.return_path.name },
      tracking: body.tracking === null ? null : body.tracking && { name: body.tracking.name },
      dkim: body.dkim && { mode: body.dkim.mode },
      inbound: body.inbound && { enabled: body.inbound.enabled },
    };
    return this.services.send(EmailSubjects.UpdateDomain, input, context);
  }

  @Delete(':domain_id')
  @HttpCode(204)
  @Route({
    ...domains,
    summary: 'Delete a sending domain; sends from it are refused afterwards',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
  })
  async remove(
    @Param('domain_id') domainId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(EmailSubjects.DeleteDomain, { domain_id: domainId }, context);
  }

  @Post(':domain_id/verify')
  @HttpCode(200)
  @Route({
    ...domains,
    summary: 'Look the records up in DNS now and return the domain with per-record results',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 200, description: 'The domain after the check' },
  })
  verify(
    @Param('domain_id') domainId: string,
    @CallContext() context: RequestContext,
  ): Promise<EmailDomain> {
    return this.services.send(EmailSubjects.VerifyDomain, { domain_id: domainId }, context);
  }
}
