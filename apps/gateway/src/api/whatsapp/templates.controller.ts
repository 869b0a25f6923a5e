import { Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { WhatsAppTemplateSubjects } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import { ListWhatsAppTemplatesQuery, ListWhatsAppTemplateVersionsQuery } from './templates.dto';

const templates = { tag: 'WhatsApp templates', auth: 'api', role: 'read' } as const;

/**
 * The SDK's `whatsapp.templates` (read-only: templates are copies of what Meta holds), with
 * their versions and each version's languages; answered by the sms-whatsapp service.
 */
@Controller('v1/whatsapp/templates')
export class WhatsAppTemplatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @Route({
    ...templates,
    summary: 'List WhatsApp templates, newest first (waba, status, scope, category and q filters)',
    rateLimit: 'api_list',
    paginated: true,
    query: ListWhatsAppTemplatesQuery,
    response: { status: 200, description: 'A page of templates' },
  })
  list(@ValidQuery() query: ListWhatsAppTemplatesQuery, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppTemplateSubjects.List, { ...query }, context);
  }

  @Get(':whatsapp_template_ref')
  @Route({
    ...templates,
    summary: 'Get a WhatsApp template by id or slug, with where each of its languages stands',
    rateLimit: 'read',
    response: { status: 200, description: 'The template' },
  })
  get(@Param('whatsapp_template_ref') ref: string, @CallContext() context: RequestContext) {
    return this.services.send(WhatsAppTemplateSubjects.Get, { template_ref: ref }, context);
  }

  @Get(':whatsapp_template_ref/versions')
  @Route({
    ...templates,
    summary: "List a WhatsApp template's versions, newest first",
    rateLimit: 'api_list',
    paginated: true,
    query: ListWhatsAppTemplateVersionsQuery,
    response: { status: 200, description: 'A page of versions, without content' },
  })
  listVersions(
    @Param('whatsapp_template_ref') ref: string,
    @ValidQuery() query: ListWhatsAppTemplateVersionsQuery,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppTemplateSubjects.ListVersions,
      { ...query, template_ref: ref },
      context,
    );
  }

  @Get(':whatsapp_template_ref/versions/:template_version_id')
  @Route({
    ...templates,
    summary: 'Get one version of a WhatsApp template, with the content of each language',
    rateLimit: 'read',
    response: { status: 200, description: 'The version' },
  })
  getVersion(
    @Param('whatsapp_template_ref') ref: string,
    @Param('template_version_id') versionId: string,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppTemplateSubjects.GetVersion,
      { template_ref: ref, version_id: versionId },
      context,
    );
  }

  @Get(':whatsapp_template_ref/versions/:template_version_id/languages')
  @Route({
    ...templates,
    summary: "List a template version's languages with their status and content hash",
    rateLimit: 'read',
    response: { status: 200, description: 'Every language of the version (not paginated)' },
  })
  listLanguages(
    @Param('whatsapp_template_ref') ref: string,
    @Param('template_version_id') versionId: string,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppTemplateSubjects.ListLanguages,
      { template_ref: ref, version_id: versionId },
      context,
    );
  }

  @Get(':whatsapp_template_ref/versions/:template_version_id/languages/:template_language')
  @Route({
    ...templates,
    summary: 'Get one language of a template version: its components and what Meta holds of it',
    rateLimit: 'read',
    response: { status: 200, description: 'The language' },
  })
  getLanguage(
    @Param('whatsapp_template_ref') ref: string,
    @Param('template_version_id') versionId: string,
    @Param('template_language') language: string,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppTemplateSubjects.GetLanguage,
      { template_ref: ref, version_id: versionId, language },
      context,
    );
  }
}

/** The workspace API's template sync of a channel group (AccessKey), answered at once. */
@Controller('workspaces/:workspace_id/channel-groups/:channel_group_id')
export class ChannelGroupTemplatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('sync-templates')
  @HttpCode(202)
  @Route({
    tag: 'Workspace API: channel groups',
    auth: 'access_key',
    role: 'write',
    rateLimit: 'write',
    summary:
      "Sync the templates of the channel group's WhatsApp Business Account from Meta (accepted, done in the background)",
    response: { status: 202, description: '`{status: "accepted", message}`' },
  })
  syncTemplates(
    @Param('workspace_id') workspaceId: string,
    @Param('channel_group_id') channelGroupId: string,
    @CallContext() context: RequestContext,
  ) {
    return this.services.send(
      WhatsAppTemplateSubjects.Sync,
      { workspace_id: workspaceId, channel_group_id: channelGroupId },
      context,
    );
  }
}
