import { Injectable } from '@nestjs/common';
import { WhatsAppTemplatesErrors } from '@switchboard/contracts';
import type {
  ListWhatsAppTemplatesRequest,
  ListWhatsAppTemplateVersionsRequest,
  Page,
  RequestContext,
  WhatsAppTemplate,
  WhatsAppTemplateLanguage,
  WhatsAppTemplateLanguageList,
  WhatsAppTemplateLanguageRequest,
  WhatsAppTemplateVersion,
  WhatsAppTemplateVersionRequest,
  WhatsAppTemplateVersionSummary,
} from '@switchboard/contracts';
import { CursorCodec } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { canonicalTag } from './language-tags';
import {
  toLanguageDto,
  toLanguageListDto,
  toTemplateDto,
  toVersionDto,
  toVersionSummaryDto,
} from './template.mapper';
import type { LanguageRow, TemplateRow, VersionRow } from './template-rows';
import { WhatsAppTemplatesRepository } from './templates.repository';

function groupByVersion(rows: readonly LanguageRow[]): Map<string, LanguageRow[]> {
  const grouped = new Map<string, LanguageRow[]>();
  for (const row of rows)
    grouped.set(row.version_id, [...(grouped.get(row.version_id) ?? []), row]);
  return grouped;
}

/** The read side of WhatsApp templates: templates, their versions and the versions' languages. */
@Injectable()
export class WhatsAppTemplatesService {
  constructor(
    private readonly repository: WhatsAppTemplatesRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListWhatsAppTemplatesRequest,
  ): Promise<Page<WhatsAppTemplate>> {
    const page = await this.repository.list(workspaceOf(context), input, this.cursors);
    const live = groupByVersion(
      await this.repository.languages(
        page.data.flatMap((row) => (row.live_version_id ? [row.live_version_id] : [])),
      ),
    );
    return {
      ...page,
      data: page.data.map((row) => toTemplateDto(row, live.get(row.live_version_id ?? '') ?? [])),
    };
  }

  async get(context: RequestContext, ref: string): Promise<WhatsAppTemplate> {
    const template = await this.template(context, ref);
    const live = template.live_version_id
      ? await this.repository.languages([template.live_version_id])
      : [];
    return toTemplateDto(template, live);
  }

  async listVersions(
    context: RequestContext,
    input: ListWhatsAppTemplateVersionsRequest,
  ): Promise<Page<WhatsAppTemplateVersionSummary>> {
    const template = await this.template(context, input.template_ref);
    const page = await this.repository.listVersions(
      template.workspace_id,
      template.id,
      input,
      this.cursors,
    );
    const languages = groupByVersion(
      await this.repository.languages(page.data.map((version) => version.id)),
    );
    return {
      ...page,
      data: page.data.map((version) =>
        toVersionSummaryDto(version, languages.get(version.id) ?? []),
      ),
    };
  }

  async getVersion(
    context: RequestContext,
    input: WhatsAppTemplateVersionRequest,
  ): Promise<WhatsAppTemplateVersion> {
    const { version } = await this.version(context, input);
    return toVersionDto(version, await this.repository.languages([version.id]));
  }

  async listLanguages(
    context: RequestContext,
    input: WhatsAppTemplateVersionRequest,
  ): Promise<WhatsAppTemplateLanguageList> {
    const { version } = await this.version(context, input);
    return toLanguageListDto(await this.repository.languages([version.id]));
  }

  async getLanguage(
    context: RequestContext,
    input: WhatsAppTemplateLanguageRequest,
  ): Promise<WhatsAppTemplateLanguage> {
    const { template, version } = await this.version(context, input);
    const tag = canonicalTag(input.language);
    const row = tag === undefined ? undefined : await this.repository.language(version.id, tag);
    if (!row)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateLanguageNotFound, {
        param: 'language',
      });
    return toLanguageDto(row, template.live_version_id === version.id);
  }

  /** The template a path's `{template_ref}` names; a slug several accounts hold is ambiguous. */
  private async template(context: RequestContext, ref: string): Promise<TemplateRow> {
    const found = await this.repository.findByRef(workspaceOf(context), ref);
    if (found.length === 0)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateNotFound, {
        param: 'template_ref',
      });
    if (found.length > 1)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateAmbiguous, {
        param: 'template_ref',
        message: `${found.length} business accounts of the workspace have a template named ${ref} (${found.map((row) => row.waba).join(', ')}): address it by its id.`,
      });
    return found[0];
  }

  private async version(
    context: RequestContext,
    input: WhatsAppTemplateVersionRequest,
  ): Promise<{ template: TemplateRow; version: VersionRow }> {
    const template = await this.template(context, input.template_ref);
    const version = await this.repository.version(
      template.workspace_id,
      template.id,
      input.version_id,
    );
    if (!version)
      throw new AppError(WhatsAppTemplatesErrors.WhatsAppTemplateVersionNotFound, {
        param: 'version_id',
      });
    return { template, version };
  }
}
