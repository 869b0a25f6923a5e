import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put } from '@nestjs/common';
import { EmailTemplateSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { PageQuery } from '../../pipeline/http/list-query.dto';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { emailTemplates } from './templates.controller';
import {
  PatchEmailTemplateLanguageDto,
  PutEmailTemplateLanguageDto,
  RollbackEmailTemplateDto,
  SubmitEmailTemplateDto,
} from './templates.dto';

const VERSION = ':email_template_ref/versions/:email_template_version_id';
const LANGUAGE = `${VERSION}/languages/:email_template_language`;

/** A template's versions and their languages, answered by the email service. */
@Controller('v1/email/templates')
export class EmailTemplateVersionsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get(':email_template_ref/versions')
  @Route({
    ...emailTemplates,
    summary: 'List a template’s versions (the draft and every published one), newest first',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: PageQuery,
    response: { status: 200, description: 'A page of version summaries' },
  })
  list(
    @Param('email_template_ref') templateRef: string,
    @ValidQuery() query: PageQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.ListVersions,
      { ...query, template_ref: templateRef },
      context,
    );
  }

  @Get(VERSION)
  @Route({
    ...emailTemplates,
    summary: 'Get a version with its content in every language and its variables',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The version' },
  })
  get(@Param() path: VersionPath, @CallContext() context: RequestContext) {
    return this.services.send(EmailTemplateSubjects.GetVersion, versionOf(path), context);
  }

  @Delete(VERSION)
  @HttpCode(204)
  @Route({
    ...emailTemplates,
    summary: 'Discard the draft’s changes: it holds the live version’s content again',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Discarded' },
  })
  async discard(@Param() path: VersionPath, @CallContext() context: RequestContext) {
    await this.services.send(EmailTemplateSubjects.DiscardDraft, versionOf(path), context);
  }

  @Post(`${VERSION}/submit`)
  @HttpCode(200)
  @Route({
    ...emailTemplates,
    summary: 'Submit the draft: every language checked, all or nothing; it goes live at once',
    role: 'write',
    rateLimit: 'write',
    body: SubmitEmailTemplateDto,
    response: { status: 200, description: 'The submit result (valid, errors, version)' },
  })
  submit(
    @Param() path: VersionPath,
    @ValidBody() body: SubmitEmailTemplateDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.Submit,
      { ...body, ...versionOf(path) },
      context,
    );
  }

  @Post(`${VERSION}/rollback`)
  @HttpCode(200)
  @Route({
    ...emailTemplates,
    summary: 'Make a published version live again and reset the draft to it',
    role: 'write',
    rateLimit: 'write',
    body: RollbackEmailTemplateDto,
    response: { status: 200, description: 'The template' },
  })
  rollback(
    @Param() path: VersionPath,
    @ValidBody() body: RollbackEmailTemplateDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.Rollback,
      { ...body, ...versionOf(path) },
      context,
    );
  }

  @Get(`${VERSION}/languages`)
  @Route({
    ...emailTemplates,
    summary: 'List a version’s languages, without their content',
    role: 'read',
    // A list, whole in one answer: the list quota, like every page of a list.
    rateLimit: 'api_list',
    response: { status: 200, description: 'The languages, as {data}' },
  })
  listLanguages(@Param() path: VersionPath, @CallContext() context: RequestContext) {
    return this.services.send(EmailTemplateSubjects.ListLanguages, versionOf(path), context);
  }

  @Get(LANGUAGE)
  @Route({
    ...emailTemplates,
    summary: 'Get one language of a version with its content and compatibility findings',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The language' },
  })
  getLanguage(@Param() path: LanguagePath, @CallContext() context: RequestContext) {
    return this.services.send(EmailTemplateSubjects.GetLanguage, languageOf(path), context);
  }

  @Put(LANGUAGE)
  @Route({
    ...emailTemplates,
    summary: 'Save a draft language’s whole content (creates it when missing)',
    role: 'write',
    rateLimit: 'write',
    // Content up to the DTO's 1,000,000 characters per body: the large body limit, as sends.
    bodyLimit: 'large',
    body: PutEmailTemplateLanguageDto,
    response: { status: 200, description: 'The saved language’s identity and revisions' },
  })
  putLanguage(
    @Param() path: LanguagePath,
    @ValidBody() body: PutEmailTemplateLanguageDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.PutLanguage,
      { ...body, ...languageOf(path) },
      context,
    );
  }

  @Patch(LANGUAGE)
  @Route({
    ...emailTemplates,
    summary: 'Change some fields of an existing draft language',
    role: 'write',
    rateLimit: 'write',
    // Content up to the DTO's 1,000,000 characters per body: the large body limit, as sends.
    bodyLimit: 'large',
    body: PatchEmailTemplateLanguageDto,
    response: { status: 200, description: 'The saved language’s identity and revisions' },
  })
  patchLanguage(
    @Param() path: LanguagePath,
    @ValidBody() body: PatchEmailTemplateLanguageDto,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      EmailTemplateSubjects.PatchLanguage,
      { ...body, ...languageOf(path) },
      context,
    );
  }

  @Delete(LANGUAGE)
  @HttpCode(204)
  @Route({
    ...emailTemplates,
    summary: 'Remove a language from the draft (never the default language)',
    role: 'write',
    rateLimit: 'write',
    response: { status: 204, description: 'Removed' },
  })
  async removeLanguage(@Param() path: LanguagePath, @CallContext() context: RequestContext) {
    await this.services.send(EmailTemplateSubjects.DeleteLanguage, languageOf(path), context);
  }
}

interface VersionPath {
  email_template_ref: string;
  email_template_version_id: string;
}
interface LanguagePath extends VersionPath {
  email_template_language: string;
}

function versionOf(path: VersionPath) {
  return { template_ref: path.email_template_ref, version_id: path.email_template_version_id };
}

function languageOf(path: LanguagePath) {
  return { ...versionOf(path), language: path.email_template_language };
}
