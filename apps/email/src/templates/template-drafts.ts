import { Injectable } from '@nestjs/common';
import type { EmailTemplateVersion, RequestContext } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { workspaceOf } from '@switchboard/platform';
import { CompiledLanguage } from './compiled-language';
import { actorOf, toVersionDto } from './template.mapper';
import type { LanguageRow, TemplateRow } from './template.rows';
import { languageWrite } from './template-input';
import type { LanguageWrite } from './template-input';
import { textFromHtml } from './template-liquid';
import { TemplateVersionsRepository } from './template-versions.repository';
import { TemplatesRepository } from './templates.repository';

/** The draft's two transitions: frozen into a published version, or reset to one. */
@Injectable()
export class TemplateDrafts {
  constructor(
    private readonly repository: TemplatesRepository,
    private readonly versionRows: TemplateVersionsRepository,
  ) {}

  /**
   * Freezes the draft as the next published version (a text body derived from the HTML where
   * none was written) and makes it live; a fresh draft carries the authored content on.
   */
  async publish(
    manager: SqlRunner,
    context: RequestContext,
    template: TemplateRow,
    languages: LanguageRow[],
  ): Promise<EmailTemplateVersion> {
    const workspaceId = workspaceOf(context);
    const frozenId = template.draft_version_id;
    const draftId = newId('emv');
    await this.versionRows.insertVersion(manager, {
      id: draftId,
      workspace_id: workspaceId,
      template_id: template.id,
      default_language: template.default_language,
      revision: template.revision + 1,
      updated_by: actorOf(context),
    });
    await this.versionRows.saveLanguages(manager, workspaceId, draftId, languages);
    const derived = languages
      .filter((language) => !language.text && language.html)
      .map((language) => ({ ...language, text: textFromHtml(language.html as string) }));
    await this.versionRows.saveLanguages(manager, workspaceId, frozenId, derived);
    const variables = variablesOfLanguages(languages);
    await this.versionRows.publish(manager, workspaceId, frozenId, variables);
    await this.repository.updateTemplate(manager, workspaceId, template.id, {
      draft_version_id: draftId,
      live_version_id: frozenId,
      submitted: true,
    });
    const frozen = await this.versionRows.findVersion(workspaceId, template.id, frozenId, manager);
    const content = await this.versionRows.languages(workspaceId, frozenId, manager);
    if (!frozen) throw new Error(`version ${frozenId} vanished while it was published`);
    return toVersionDto(frozen, variables, content);
  }

  /**
   * The draft's languages replaced by `sourceId`'s, or, with nothing published, by one empty
   * language (the draft's default), as the SDK's discard says; its revision moved on.
   */
  async resetDraft(
    manager: SqlRunner,
    context: RequestContext,
    template: TemplateRow,
    sourceId: string | null,
  ): Promise<void> {
    const workspaceId = workspaceOf(context);
    const draftId = template.draft_version_id;
    let defaultLanguage: string | undefined;
    let languages: LanguageWrite[] = [];
    if (!sourceId) {
      const draft = await this.versionRows.findVersion(workspaceId, template.id, draftId, manager);
      languages = [languageWrite(draft?.default_language ?? template.default_language, {})];
    } else {
      const source = await this.versionRows.findVersion(
        workspaceId,
        template.id,
        sourceId,
        manager,
      );
      defaultLanguage = source?.default_language;
      languages = (await this.versionRows.languages(workspaceId, sourceId, manager)).map(
        withoutDerivedText,
      );
    }
    // Written over the draft's own rows, so a language it keeps moves its revision on: deleted
    // and inserted afresh it would restart at 1, and an editor's save of revision 1 read before
    // the rollback would pass its check and overwrite it.
    await this.versionRows.saveLanguages(manager, workspaceId, draftId, languages);
    const kept = new Set(languages.map((language) => language.language));
    const dropped = (await this.versionRows.languages(workspaceId, draftId, manager))
      .map((language) => language.language)
      .filter((language) => !kept.has(language));
    if (dropped.length > 0)
      await this.versionRows.deleteLanguages(manager, workspaceId, draftId, dropped);
    await this.versionRows.touchDraft(manager, workspaceId, draftId, {
      updated_by: actorOf(context),
      default_language: defaultLanguage,
    });
    await this.repository.updateTemplate(manager, workspaceId, template.id, {});
  }
}

/**
 * A published language as the draft takes it back: the text `publish` derived from the HTML is
 * left out, so the next submit derives it again from the HTML as edited then (a text written
 * the same as the derivation is read as derived: deriving it again gives it back unchanged).
 */
function withoutDerivedText(language: LanguageRow): LanguageRow {
  return language.html && language.text && language.text === textFromHtml(language.html)
    ? { ...language, text: null }
    : language;
}

/** The parameters any of the languages uses (content that does not parse contributes none). */
export function variablesOfLanguages(languages: LanguageRow[]): string[] {
  const names = new Set<string>();
  for (const language of languages) {
    try {
      for (const name of new CompiledLanguage(language).variables.parameters) names.add(name);
    } catch {
      // Unparseable content: its submit is refused, and a draft read lists what it can.
    }
  }
  return [...names].sort();
}
