import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { EmailTemplateSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  checkLanguageMap,
  CreateEmailTemplateDto,
  DuplicateEmailTemplateDto,
  ListEmailTemplatesQuery,
  PreviewEmailTemplateDto,
  UpdateEmailTemplateDto,
} from './templates.dto';

export const emailTemplates = { tag: 'Email templates', auth: 'api' } as const;

/** Email templates (reference section 4), answered by the email service. */
@Controller('v1/email/templates')
export class EmailTemplatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...emailTemplates,
    summary: 'List email templates, newest first (scope, category, source, theme and q filters)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListEmailTemplatesQuery,
    response: { status: 200, description: 'A page of template summaries' },
  })
  list(@ValidQuery() query: ListEmailTemplatesQuery, @CallContext() context: RequestContext) {
    return this.services.send(EmailTemplateSubjects.List, { ...query }, context);
  }

  @Post()
  @HttpCode(201)
  @Route({
    ...emailTemplates,
    summary: 'Create a template and its initial draft',
    role: 'write',
    rateLimit: 'write',
    // Content up to the DTO's 1,000,000 characters per body: the large body limit, as sends.
    bodyLimit: 'large',
    body: CreateEmailTemplateDto,
    response: { status: 201, description: 'The template' },
  })
  create(@ValidBody() body: CreateEmailTemplateDto, @CallContext() context: RequestContext) {
    checkLanguageMap(body.languages);
    return this.services.send(EmailTemplateSubjects.Create, { ...body }, context);
  }

  @Get(':email_template_ref')
  @Route({
    ...emailTemplates,
    summary: 'Get a template by id or slug (metadata and language states, no content)',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The template' },
  })
  get(@Param('email_template_ref') templateRef: string, @CallContext() context: RequestContext) {
    return this.services.send(EmailTemplateSubjects.Get, { template_ref: templateRef }, context);
  }

  @Patch(':email_template_ref')
  @Route({
    ...emailTemplates,
    summary: "Update a template's metadata and draft settings (revision required; stale is 409)",
    role: 'write',
    rateLimit: 'write',
    body: UpdateEmailTemplateDto,
    response: { status: 200, description: 'The template' },
  })
  update(
    @Param('email_template_ref') templateRef: string,
    @ValidBody() body: UpdateEmailTemplateDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.Update,
      { ...body, template_ref: templateRef },
      context,
    );
  }

  @Delete(':email_template_ref')
  @HttpCode(204)
  @Route({
    ...emailTemplates,
    summary: 'Delete a template with all its versions; frees its slug',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
  })
  async remove(
    @Param('email_template_ref') templateRef: string,
    @CallContext() context: RequestContext,
  ) {
    await this.services.send(EmailTemplateSubjects.Delete, { template_ref: templateRef }, context);
  }

  @Post(':email_template_ref/duplicate')
  @HttpCode(201)
  @Route({
    ...emailTemplates,
    summary: 'Copy a template and its draft under a new slug (default <slug>-copy)',
    role: 'write',
    rateLimit: 'write',
    body: DuplicateEmailTemplateDto,
    response: { status: 201, description: 'The copy' },
  })
  duplicate(
    @Param('email_template_ref') templateRef: string,
    @ValidBody() body: DuplicateEmailTemplateDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.Duplicate,
      { ...body, template_ref: templateRef },
      context,
    );
  }

  @Post(':email_template_ref/preview')
  @HttpCode(200)
  @Route({
    ...emailTemplates,
    summary: 'Render the draft, a published version or given content with sample values',
    role: 'write',
    rateLimit: 'read',
    // Content up to the DTO's 1,000,000 characters per body: the large body limit, as sends.
    bodyLimit: 'large',
    body: PreviewEmailTemplateDto,
    response: { status: 200, description: 'The rendered subject, HTML and text' },
  })
  preview(
    @Param('email_template_ref') templateRef: string,
    @ValidBody() body: PreviewEmailTemplateDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.Preview,
      { ...body, template_ref: templateRef },
      context,
    );
  }
}
