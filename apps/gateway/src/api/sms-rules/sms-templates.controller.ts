import { Controller, Get, Inject, Param } from '@nestjs/common';
import { SmsTemplateSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { ListSmsTemplatesQuery } from './sms-templates.dto';

const templates = { tag: 'SMS templates', auth: 'api' } as const;

/** The built-in SMS template catalog (read-only), answered by the sms-whatsapp service. */
@Controller('v1/sms/templates')
export class SmsTemplatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...templates,
    summary: 'List the SMS templates (the whole catalog; scope, category and language filters)',
    role: 'read',
    // A list, whole in one answer: the list quota, like every page of a list.
    rateLimit: 'api_list',
    query: ListSmsTemplatesQuery,
    response: { status: 200, description: 'The templates, as {data}' },
  })
  list(@ValidQuery() query: ListSmsTemplatesQuery, @CallContext() context: RequestContext) {
    return this.services.send(SmsTemplateSubjects.List, { ...query }, context);
  }

  @Get(':template_ref')
  @Route({
    ...templates,
    summary: 'Get an SMS template by id or slug, with its variables and languages',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The template' },
  })
  get(@Param('template_ref') templateRef: string, @CallContext() context: RequestContext) {
    return this.services.send(SmsTemplateSubjects.Get, { template_ref: templateRef }, context);
  }
}
