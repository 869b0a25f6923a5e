import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WhatsAppTemplateSubjects } from '@switchboard/contracts';
import type {
  ListWhatsAppTemplatesRequest,
  ListWhatsAppTemplateVersionsRequest,
  SyncWhatsAppTemplatesRequest,
  WhatsAppTemplateLanguageRequest,
  WhatsAppTemplateRefRequest,
  WhatsAppTemplateVersionRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { TemplateSyncService } from './template-sync.service';
import { WhatsAppTemplatesService } from './templates.service';

/** Transport handlers of WhatsApp templates; the gateway has checked every payload's shape. */
@Controller()
export class WhatsAppTemplatesHandler {
  constructor(
    private readonly templates: WhatsAppTemplatesService,
    private readonly syncs: TemplateSyncService,
  ) {}

  @Handles(WhatsAppTemplateSubjects.List)
  list(@Payload() input: ListWhatsAppTemplatesRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.list(requestContextOf(context), input);
  }

  @Handles(WhatsAppTemplateSubjects.Get)
  get(@Payload() input: WhatsAppTemplateRefRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.get(requestContextOf(context), input.template_ref);
  }

  @Handles(WhatsAppTemplateSubjects.ListVersions)
  listVersions(
    @Payload() input: ListWhatsAppTemplateVersionsRequest,
    @Ctx() context: BaseRpcContext,
  ) {
    return this.templates.listVersions(requestContextOf(context), input);
  }

  @Handles(WhatsAppTemplateSubjects.GetVersion)
  getVersion(@Payload() input: WhatsAppTemplateVersionRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.getVersion(requestContextOf(context), input);
  }

  @Handles(WhatsAppTemplateSubjects.ListLanguages)
  listLanguages(@Payload() input: WhatsAppTemplateVersionRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.listLanguages(requestContextOf(context), input);
  }

  @Handles(WhatsAppTemplateSubjects.GetLanguage)
  getLanguage(@Payload() input: WhatsAppTemplateLanguageRequest, @Ctx() context: BaseRpcContext) {
    return this.templates.getLanguage(requestContextOf(context), input);
  }

  @Handles(WhatsAppTemplateSubjects.Sync)
  sync(@Payload() input: SyncWhatsAppTemplatesRequest, @Ctx() context: BaseRpcContext) {
    return this.syncs.requestSync(requestContextOf(context), input);
  }
}
