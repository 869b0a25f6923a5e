import { Inject, Injectable, Optional } from '@nestjs/common';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type {
  CreateEmailTemplateRequest,
  DuplicateEmailTemplateRequest,
  EmailTemplate,
  EmailTemplateSummary,
  ListEmailTemplatesRequest,
  RequestContext,
  UpdateEmailTemplateRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, isUniqueViolation, newId } from '@switchboard/persistence';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { actorOf, toTemplateDto, toTemplateSummary } from './template.mapper';
import type { TemplateRow } from './template.rows';
import { assertSlug, languageTag, languageWrites } from './template-input';
import type { LanguageWrite } from './template-input';
import { TEMPLATE_USAGE } from './template-usage';
import type { TemplateUsage } from './template-usage';
import { TemplateVersionsRepository } from './template-versions.repository';
import { TemplatesRepository } from './templates.repository';

/** A template's metadata: list, create, read, update, delete and duplicate. */
@Injectable()
export class TemplatesService {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly versionRows: TemplateVersionsRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
    @Optional() @Inject(TEMPLATE_USAGE) private readonly usage?: TemplateUsage,
  ) {}

  async list(
    context: RequestContext,
    request: ListEmailTemplatesRequest,
  ): Promise<Page<EmailTemplateSummary>> {
    const page = await this.repository.list(workspaceOf(context), request, this.cursors);
    return { ...page, data: page.data.map(toTemplateSummary) };
  }

  async get(context: RequestContext, ref: string): Promise<EmailTemplate> {
    return toTemplateDto(await this.find(workspaceOf(context), ref));
  }

  async find(workspaceId: string, ref: string, runner?: SqlRunner): Promise<TemplateRow> {
    const row = await this.repository.find(workspaceId, ref, runner);
    if (!row)
      throw new AppError(EmailTemplateErrors.EmailTemplateNotFound, { param: 'template_ref' });
    return row;
  }

  async create(context: RequestContext, input: CreateEmailTemplateRequest): Promise<EmailTemplate> {
    assertSlug(input.slug);
    const languages = languageWrites(input.languages);
    const defaultLanguage = defaultLanguageOf(input.default_language, languages);
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const id = newId('emt');
      await this.insert(manager, context, {
        id,
        slug: input.slug,
        name: input.name ?? input.slug,
        description: input.description ?? null,
        category: input.category,
        source: input.source,
        on_missing_language: input.on_missing_language ?? 'fallback',
        language_source_required: input.language_source_required ?? false,
        default_language: defaultLanguage,
        languages,
      });
      return toTemplateDto(await this.find(workspaceId, id, manager));
    });
  }

  async update(context: RequestContext, input: UpdateEmailTemplateRequest): Promise<EmailTemplate> {
    const workspaceId = workspaceOf(context);
    // `null` on a field that cannot be cleared leaves it as it is, like an absent one.
    const defaultLanguage =
      input.default_language == null
        ? undefined
        : languageTag(input.default_language, 'default_language');
    return this.writes.run(context, async (manager) => {
      const row = await this.lockedView(manager, workspaceId, input.template_ref);
      if (row.revision !== input.revision) throw revisionConflict(row.revision);
      if (defaultLanguage !== undefined && !(defaultLanguage in row.draft_languages))
        throw new AppError(EmailTemplateErrors.TemplateDefaultLanguageMissing, {
          details: [
            {
              param: 'default_language',
              message: `the draft has no ${defaultLanguage} content: add the language first`,
            },
          ],
        });
      await this.repository.updateTemplate(manager, workspaceId, row.id, {
        name: input.name ?? undefined,
        description: input.description,
        on_missing_language: input.on_missing_language ?? undefined,
        language_source_required: input.language_source_required ?? undefined,
      });
      await this.versionRows.touchDraft(manager, workspaceId, row.draft_version_id, {
        updated_by: actorOf(context),
        default_language: defaultLanguage,
      });
      return toTemplateDto(await this.find(workspaceId, row.id, manager));
    });
  }

  async remove(context: RequestContext, ref: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const row = await this.lockedView(manager, workspaceId, ref);
      await this.usage?.assertDeletable(manager, workspaceId, row.id);
      await this.repository.deleteTemplate(manager, workspaceId, row.id);
      return null;
    });
  }

  /** A new template with the source's settings and its draft's content; `<slug>-copy` by default. */
  async duplicate(
    context: RequestContext,
    input: DuplicateEmailTemplateRequest,
  ): Promise<EmailTemplate> {
    if (input.slug != null) assertSlug(input.slug);
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const source = await this.find(workspaceId, input.template_ref, manager);
      const slug = input.slug ?? (await this.freeCopySlug(manager, workspaceId, source.slug));
      const languages = await this.versionRows.languages(
        workspaceId,
        source.draft_version_id,
        manager,
      );
      const id = newId('emt');
      await this.insert(manager, context, {
        ...source,
        id,
        slug,
        default_language: source.default_language,
        languages,
      });
      return toTemplateDto(await this.find(workspaceId, id, manager));
    });
  }

  /** The row locked, then its view (404 when the workspace has no such template). */
  async lockedView(runner: SqlRunner, workspaceId: string, ref: string): Promise<TemplateRow> {
    const locked = await this.repository.lock(runner, workspaceId, ref);
    if (!locked)
      throw new AppError(EmailTemplateErrors.EmailTemplateNotFound, { param: 'template_ref' });
    return this.find(workspaceId, locked.id, runner);
  }

  private async insert(
    runner: SqlRunner,
    context: RequestContext,
    template: Pick<
      TemplateRow,
      | 'id'
      | 'slug'
      | 'name'
      | 'description'
      | 'category'
      | 'source'
      | 'on_missing_language'
      | 'language_source_required'
      | 'default_language'
    > & { languages: LanguageWrite[] },
  ): Promise<void> {
    const workspaceId = workspaceOf(context);
    const draftId = newId('emv');
    try {
      await this.repository.insertTemplate(runner, {
        ...template,
        workspace_id: workspaceId,
        draft_version_id: draftId,
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new AppError(EmailTemplateErrors.EmailTemplateSlugTaken, {
          param: 'slug',
          message: `another template of this workspace already has the slug ${template.slug}`,
        });
      throw err;
    }
    await this.versionRows.insertVersion(runner, {
      id: draftId,
      workspace_id: workspaceId,
      template_id: template.id,
      default_language: template.default_language,
      updated_by: actorOf(context),
    });
    await this.versionRows.saveLanguages(
      runner,
      workspaceId,
      draftId,
      template.languages.map(({ language, subject, preview_text, html, text, content_hash }) => ({
        language,
        subject,
        preview_text,
        html,
        text,
        content_hash,
      })),
    );
  }

  private async freeCopySlug(runner: SqlRunner, workspaceId: string, slug: string) {
    const base = `${slug.slice(0, 55)}-copy`;
    const candidates = [base, ...Array.from({ length: 50 }, (_, i) => `${base}-${i + 2}`)];
    const taken = await this.repository.slugTaken(runner, workspaceId, candidates);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (!free)
      throw new AppError(EmailTemplateErrors.EmailTemplateSlugTaken, {
        param: 'slug',
        message: `every slug from ${base} to ${base}-51 is taken: name the copy's slug`,
      });
    return free;
  }
}

export function revisionConflict(current: number): AppError {
  return new AppError(EmailTemplateErrors.EmailTemplateRevisionConflict, {
    param: 'revision',
    message: `the draft is at revision ${current}: read the template again and retry`,
  });
}

/** The SDK's default: the one language supplied, else `en`, which must then be among them. */
function defaultLanguageOf(given: string | null | undefined, languages: LanguageWrite[]): string {
  const tags = languages.map((language) => language.language);
  const chosen =
    given != null ? languageTag(given, 'default_language') : tags.length === 1 ? tags[0] : 'en';
  if (tags.length > 0 && !tags.includes(chosen))
    throw new AppError(EmailTemplateErrors.TemplateDefaultLanguageMissing, {
      details: [
        {
          param: 'default_language',
          message:
            given === undefined
              ? 'en is not among the languages: set default_language to one of them'
              : `${chosen} is not among the languages supplied`,
        },
      ],
    });
  return chosen;
}
