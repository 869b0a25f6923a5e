import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { EmailTemplateSubjects } from '@switchboard/contracts';
import type {
  CreateEmailTemplateRequest,
  DuplicateEmailTemplateRequest,
  ListEmailTemplatesRequest,
  ListEmailTemplateVersionsRequest,
  PatchEmailTemplateLanguageRequest,
  PreviewEmailTemplateRequest,
  PutEmailTemplateLanguageRequest,
  RollbackEmailTemplateRequest,
  SubmitEmailTemplateRequest,
  TemplateLanguageRequest,
  TemplateRefRequest,
  TemplateVersionRequest,
  UpdateEmailTemplateRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { TemplateLanguagesService } from './template-languages.service';
import { TemplatePreviewsService } from './template-previews.service';
import { TemplateVersionsService } from './template-versions.service';
import { TemplatesService } from './templates.service';

/** Transport handlers of email templates; the gateway has validated every payload's shape. */
@Controller()
export class TemplatesHandler {
  constructor(
    private readonly templates: TemplatesService,
    private readonly versions: TemplateVersionsService,
    private readonly languages: TemplateLanguagesService,
    private readonly previews: TemplatePreviewsService,
  ) {}

  @Handles(EmailTemplateSubjects.List)
  list(@Payload() input: ListEmailTemplatesRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.list(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Create)
  create(@Payload() input: CreateEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.create(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Get)
  get(@Payload() input: TemplateRefRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.get(requestContextOf(context), input.template_ref);
  }

  @Handles(EmailTemplateSubjects.Update)
  update(@Payload() input: UpdateEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.update(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Delete)
  remove(@Payload() input: TemplateRefRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.remove(requestContextOf(context), input.template_ref);
  }

  @Handles(EmailTemplateSubjects.Duplicate)
  duplicate(@Payload() input: DuplicateEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.duplicate(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Preview)
  preview(@Payload() input: PreviewEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.previews.preview(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.ListVersions)
  listVersions(@Payload() input: ListEmailTemplateVersionsRequest, @Ctx() context: BaseRpcContext) {
    return this.versions.list(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.GetVersion)
  getVersion(@Payload() input: TemplateVersionRequest, @Ctx() context: BaseRpcContext) {
    return this.versions.get(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.DiscardDraft)
  discard(@Payload() input: TemplateVersionRequest, @Ctx() context: BaseRpcContext) {
    return this.versions.discard(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Submit)
  submit(@Payload() input: SubmitEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.versions.submit(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.Rollback)
  rollback(@Payload() input: RollbackEmailTemplateRequest, @Ctx() context: BaseRpcContext) {
    return this.versions.rollback(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.ListLanguages)
  listLanguages(@Payload() input: TemplateVersionRequest, @Ctx() context: BaseRpcContext) {
    return this.languages.list(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.GetLanguage)
  getLanguage(@Payload() input: TemplateLanguageRequest, @Ctx() context: BaseRpcContext) {
    return this.languages.get(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.PutLanguage)
  putLanguage(@Payload() input: PutEmailTemplateLanguageRequest, @Ctx() context: BaseRpcContext) {
    return this.languages.put(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.PatchLanguage)
  patchLanguage(
    @Payload() input: PatchEmailTemplateLanguageRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.languages.patch(requestContextOf(context), input);
  }

  @Handles(EmailTemplateSubjects.DeleteLanguage)
  removeLanguage(@Payload() input: TemplateLanguageRequest, @Ctx() context: BaseRpcContext) {
    return this.languages.remove(requestContextOf(context), input);
  }
}
