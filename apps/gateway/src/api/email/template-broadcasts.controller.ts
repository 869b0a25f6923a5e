import { Controller, Get, Inject, Param } from '@nestjs/common';
import { EmailBroadcastSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { PageQuery } from '../../pipeline/http/list-query.dto';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';

/** A template's broadcasts, cursors only. */
export class ListTemplateBroadcastsQuery extends PageQuery {}

/** The broadcasts that block deleting an email template, answered by the broadcasts area. */
@Controller('v1/email/templates')
export class TemplateBroadcastsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get(':email_template_ref/broadcasts')
  @Route({
    tag: 'Email templates',
    auth: 'api',
    summary:
      'List the scheduled and accepted broadcasts that use a template (they block its delete), newest first',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListTemplateBroadcastsQuery,
    response: { status: 200, description: 'A page of broadcast summaries' },
  })
  list(
    @Param('email_template_ref') templateRef: string,
    @ValidQuery() query: ListTemplateBroadcastsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailBroadcastSubjects.ListForTemplate,
      { template_ref: templateRef, ...query },
      context,
    );
  }
}
