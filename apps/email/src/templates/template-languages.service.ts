import { Injectable } from '@nestjs/common';
import { EmailTemplateErrors, MAX_TEMPLATE_LANGUAGES } from '@switchboard/contracts';
import type {
  EmailTemplateLanguage,
  EmailTemplateLanguageContent,
  EmailTemplateLanguageList,
  EmailTemplateLanguageSaved,
  PatchEmailTemplateLanguageRequest,
  PutEmailTemplateLanguageRequest,
  RequestContext,
  TemplateLanguageRequest,
  TemplateVersionRequest,
} from '@switchboard/contracts';
import { IdempotentWrites } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { compatibilityOf } from './html-compatibility';
import { actorOf, contentOf, toLanguageDto } from './template.mapper';
import type { LanguageRow } from './template.rows';
import { languageTag, languageWrite } from './template-input';
import { TemplateVersionsService } from './template-versions.service';
import { TemplateVersionsRepository } from './template-versions.repository';
import { TemplatesRepository } from './templates.repository';

/** One version's languages: read any version's, write the draft's. */
@Injectable()
export class TemplateLanguagesService {
  constructor(
    private readonly versions: TemplateVersionsService,
    private readonly repository: TemplatesRepository,
    private readonly versionRows: TemplateVersionsRepository,
    private readonly writes: IdempotentWrites,
  ) {}

  async list(
    context: RequestContext,
    input: TemplateVersionRequest,
  ): Promise<EmailTemplateLanguageList> {
    const workspaceId = workspaceOf(context);
    const { version } = await this.versions.version(workspaceId, input);
    const languages = await this.versionRows.languages(workspaceId, version.id);
    return {
      data: languages.map((row) => ({
        language: row.language,
        revision: row.revision,
        content_hash: row.content_hash,
        updated_at: new Date(row.updated_at).toISOString(),
        has_html: row.html !== null && row.html !== '',
        has_text: row.text !== null && row.text !== '',
      })),
    };
  }

  async get(
    context: RequestContext,
    input: TemplateLanguageRequest,
  ): Promise<EmailTemplateLanguage> {
    const workspaceId = workspaceOf(context);
    const language = languageTag(input.language, 'language');
    const { version } = await this.versions.version(workspaceId, input);
    const row = (await this.versionRows.languages(workspaceId, version.id)).find(
      (candidate) => candidate.language === language,
    );
    if (!row) throw notFound();
    return toLanguageDto(row);
  }

  /** Replaces the language's content (creating it when missing): omitted fields are cleared. */
  put(
    context: RequestContext,
    input: PutEmailTemplateLanguageRequest,
  ): Promise<EmailTemplateLanguageSaved> {
    return this.save(context, input, () => ({
      subject: input.subject,
      preview_text: input.preview_text,
      html: input.html,
      text: input.text,
    }));
  }

  /** Changes the fields given of an existing language; `null` clears preview text or text. */
  patch(
    context: RequestContext,
    input: PatchEmailTemplateLanguageRequest,
  ): Promise<EmailTemplateLanguageSaved> {
    return this.save(context, input, (current) => {
      if (!current) throw notFound();
      const merged = { ...contentOf(current) };
      for (const field of ['subject', 'preview_text', 'html', 'text'] as const) {
        const value = input[field];
        if (value === null) delete merged[field];
        else if (value !== undefined) merged[field] = value;
      }
      return merged;
    });
  }

  async remove(context: RequestContext, input: TemplateLanguageRequest): Promise<null> {
    const workspaceId = workspaceOf(context);
    const language = languageTag(input.language, 'language');
    return this.writes.run(context, async (manager) => {
      const { template, current } = await this.draft(manager, context, input, language);
      if (!current) throw notFound();
      if (language === template.default_language)
        throw new AppError(EmailTemplateErrors.TemplateDefaultLanguageNotRemovable, {
          details: [
            {
              param: 'language',
              message: `${language} is the default language: make another language the default first`,
            },
          ],
        });
      await this.versionRows.deleteLanguages(manager, workspaceId, template.draft_version_id, [
        language,
      ]);
      await this.versionRows.touchDraft(manager, workspaceId, template.draft_version_id, {
        updated_by: actorOf(context),
      });
      await this.repository.updateTemplate(manager, workspaceId, template.id, {});
      return null;
    });
  }

  private async save(
    context: RequestContext,
    input: TemplateLanguageRequest & { revision?: number },
    contentFor: (current: LanguageRow | undefined) => EmailTemplateLanguageContent,
  ): Promise<EmailTemplateLanguageSaved> {
    const workspaceId = workspaceOf(context);
    const language = languageTag(input.language, 'language');
    return this.writes.run(context, async (manager) => {
      const { template, current, count } = await this.draft(manager, context, input, language);
      const content = contentFor(current);
      if (current && input.revision != null && input.revision !== current.revision)
        throw new AppError(EmailTemplateErrors.EmailTemplateLanguageRevisionConflict, {
          param: 'revision',
          message: `${language} is at revision ${current.revision}: read it again and retry`,
        });
      if (!current && count >= MAX_TEMPLATE_LANGUAGES)
        throw AppError.validation([
          {
            param: 'language',
            message: `a template holds at most ${MAX_TEMPLATE_LANGUAGES} languages`,
          },
        ]);
      const [saved] = await this.versionRows.saveLanguages(
        manager,
        workspaceId,
        template.draft_version_id,
        [languageWrite(language, content)],
      );
      const draftRevision = await this.versionRows.touchDraft(
        manager,
        workspaceId,
        template.draft_version_id,
        { updated_by: actorOf(context) },
      );
      await this.repository.updateTemplate(manager, workspaceId, template.id, {});
      const report = compatibilityOf(saved.html, null);
      return {
        language,
        revision: saved.revision,
        draft_revision: draftRevision,
        content_hash: saved.content_hash,
        updated_at: new Date(saved.updated_at).toISOString(),
        template_ref: template.id,
        version_id: template.draft_version_id,
        compatibility_severity: report.severity,
        compatibility: report.findings,
      };
    });
  }

  /** The locked template, checked that `version_id` is its draft, and the language's row. */
  private async draft(
    manager: SqlRunner,
    context: RequestContext,
    input: TemplateVersionRequest,
    language: string,
  ) {
    const workspaceId = workspaceOf(context);
    const template = await this.versions.templateLocked(manager, workspaceId, input.template_ref);
    await this.versions.assertDraft(manager, workspaceId, template, input.version_id);
    const languages = await this.versionRows.languages(
      workspaceId,
      template.draft_version_id,
      manager,
    );
    return {
      template,
      current: languages.find((row) => row.language === language),
      count: languages.length,
    };
  }
}

function notFound(): AppError {
  return new AppError(EmailTemplateErrors.EmailTemplateLanguageNotFound, { param: 'language' });
}
