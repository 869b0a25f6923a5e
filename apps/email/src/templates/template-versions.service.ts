import { Injectable } from '@nestjs/common';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type {
  EmailTemplate,
  EmailTemplateSubmitResult,
  EmailTemplateVersion,
  EmailTemplateVersionSummary,
  ErrorCode,
  ListEmailTemplateVersionsRequest,
  RequestContext,
  RollbackEmailTemplateRequest,
  SubmitEmailTemplateRequest,
  TemplateVersionRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { compatibilityOf, joinReports } from './html-compatibility';
import { problemParam, submitProblems } from './submit-check';
import { toTemplateDto, toVersionDto, toVersionSummary } from './template.mapper';
import type { LanguageRow, TemplateRow, VersionRow } from './template.rows';
import { revisionConflict, TemplatesService } from './templates.service';
import { TemplateVersionsRepository } from './template-versions.repository';
import { TemplatesRepository } from './templates.repository';
import { TemplateDrafts, variablesOfLanguages } from './template-drafts';

/** A template's versions: history, the draft's submit and discard, and rollback. */
@Injectable()
export class TemplateVersionsService {
  constructor(
    private readonly templates: TemplatesService,
    private readonly repository: TemplatesRepository,
    private readonly versionRows: TemplateVersionsRepository,
    private readonly drafts: TemplateDrafts,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  async list(
    context: RequestContext,
    input: ListEmailTemplateVersionsRequest,
  ): Promise<Page<EmailTemplateVersionSummary>> {
    const workspaceId = workspaceOf(context);
    const template = await this.templates.find(workspaceId, input.template_ref);
    const page = await this.versionRows.listVersions(workspaceId, template.id, input, this.cursors);
    const data = await Promise.all(
      page.data.map(async (row) => toVersionSummary(row, await this.variablesOf(workspaceId, row))),
    );
    return { ...page, data };
  }

  async get(context: RequestContext, input: TemplateVersionRequest): Promise<EmailTemplateVersion> {
    const workspaceId = workspaceOf(context);
    const { version } = await this.version(workspaceId, input);
    const languages = await this.versionRows.languages(workspaceId, version.id);
    return toVersionDto(
      version,
      await this.variablesOf(workspaceId, version, languages),
      languages,
    );
  }

  /** The template and one of its versions (404 for either). */
  async version(
    workspaceId: string,
    input: TemplateVersionRequest,
    runner?: SqlRunner,
  ): Promise<{ template: TemplateRow; version: VersionRow }> {
    const template = await this.templates.find(workspaceId, input.template_ref, runner);
    const version = await this.versionRows.findVersion(
      workspaceId,
      template.id,
      input.version_id,
      runner,
    );
    if (!version)
      throw new AppError(EmailTemplateErrors.EmailTemplateVersionNotFound, { param: 'version_id' });
    return { template, version };
  }

  /** Discards the draft's changes: it holds the live version's content again (none if never published). */
  async discard(context: RequestContext, input: TemplateVersionRequest): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const template = await this.templates.lockedView(manager, workspaceId, input.template_ref);
      await this.assertDraft(manager, workspaceId, template, input.version_id);
      await this.drafts.resetDraft(manager, context, template, template.live_version_id);
      return null;
    });
  }

  async submit(
    context: RequestContext,
    input: SubmitEmailTemplateRequest,
  ): Promise<EmailTemplateSubmitResult> {
    if (input.languages != null)
      throw AppError.validation([
        { param: 'languages', message: 'email templates submit whole drafts: omit languages' },
      ]);
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const template = await this.templates.lockedView(manager, workspaceId, input.template_ref);
      await this.assertDraft(manager, workspaceId, template, input.version_id);
      if (input.expected_revision != null && input.expected_revision !== template.revision)
        throw revisionConflict(template.revision);
      const languages = await this.versionRows.languages(
        workspaceId,
        template.draft_version_id,
        manager,
      );
      const live = template.live_version_id
        ? await this.versionRows.findVersion(
            workspaceId,
            template.id,
            template.live_version_id,
            manager,
          )
        : undefined;
      const errors = submitProblems({
        languages,
        defaultLanguage: template.default_language,
        live: template.live_languages,
        liveDefaultLanguage: live?.default_language ?? null,
      });
      const report = joinReports(languages.map((l) => compatibilityOf(l.html, l.language)));
      const result = {
        valid: errors.length === 0,
        errors,
        version: null,
        template_ref: template.id,
        version_id: template.draft_version_id,
        compatibility_severity: report.severity,
        compatibility: report.findings,
      };
      if (input.validate_only) return result;
      if (errors.length)
        throw new AppError(errors[0].code as ErrorCode, {
          message: errors[0].message,
          details: errors.map((problem) => ({
            param: problemParam(problem),
            message: problem.message,
          })),
        });
      const version = await this.drafts.publish(manager, context, template, languages);
      return { ...result, version };
    });
  }

  async rollback(
    context: RequestContext,
    input: RollbackEmailTemplateRequest,
  ): Promise<EmailTemplate> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const { template, version } = await this.version(workspaceId, input, manager);
      const locked = await this.templates.lockedView(manager, workspaceId, template.id);
      if (version.status !== 'published')
        throw new AppError(EmailTemplateErrors.EmailTemplateVersionFrozen, {
          param: 'version_id',
          message: 'only a published version can be rolled back to; this one is the draft',
        });
      if (locked.revision !== input.revision) throw revisionConflict(locked.revision);
      await this.repository.updateTemplate(manager, workspaceId, template.id, {
        live_version_id: version.id,
      });
      await this.drafts.resetDraft(manager, context, locked, version.id);
      return toTemplateDto(await this.templates.find(workspaceId, template.id, manager));
    });
  }

  /** The template's draft version id (404 when the workspace has no such template). */
  async templateOf(workspaceId: string, ref: string): Promise<string> {
    return (await this.templates.find(workspaceId, ref)).draft_version_id;
  }

  templateLocked(runner: SqlRunner, workspaceId: string, ref: string): Promise<TemplateRow> {
    return this.templates.lockedView(runner, workspaceId, ref);
  }

  /** 422 unless `versionId` is the draft (404 when the template has no such version). */
  async assertDraft(
    runner: SqlRunner,
    workspaceId: string,
    template: TemplateRow,
    versionId: string,
  ) {
    if (versionId === template.draft_version_id) return;
    const version = await this.versionRows.findVersion(workspaceId, template.id, versionId, runner);
    if (!version)
      throw new AppError(EmailTemplateErrors.EmailTemplateVersionNotFound, { param: 'version_id' });
    throw new AppError(EmailTemplateErrors.TemplateVersionNotDraft, { param: 'version_id' });
  }

  /** A published version's stored variables; a draft's, from its content as it stands. */
  private async variablesOf(workspaceId: string, version: VersionRow, languages?: LanguageRow[]) {
    if (version.status === 'published') return version.variables;
    return variablesOfLanguages(
      languages ?? (await this.versionRows.languages(workspaceId, version.id)),
    );
  }
}
