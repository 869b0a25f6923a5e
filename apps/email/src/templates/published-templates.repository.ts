import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TemplateOnMissingLanguage } from '@switchboard/contracts';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { LanguageContent } from './compiled-language';

/** A template with its live version's summary (null columns: never published). */
export interface LiveTemplateRow {
  id: string;
  slug: string;
  category: 'transactional' | 'marketing';
  on_missing_language: TemplateOnMissingLanguage;
  language_source_required: boolean;
  version_id: string | null;
  version_number: number | null;
  default_language: string | null;
  languages: string[] | null;
}

/** One published language of a version, as stored. */
export type StoredLanguageContent = LanguageContent & { version_id: string; language: string };

/** The two reads of a send by template: which version is live, and content not yet compiled. */
@Injectable()
export class PublishedTemplatesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /**
   * Every template each lookup names (by id or slug, in its own workspace), with its live
   * version, in one query for all the lookups.
   */
  async live(
    lookups: Array<{ workspaceId: string; refs: string[] }>,
  ): Promise<Array<LiveTemplateRow & { workspace_id: string; ref: string }>> {
    const pairs = lookups.flatMap(({ workspaceId, refs }) =>
      refs.map((ref) => [workspaceId, ref] as const),
    );
    return rowsOf(
      await this.reads.query(
        `SELECT DISTINCT p.workspace_id, p.ref, t.id, t.slug, t.category, t.on_missing_language,
           t.language_source_required, v.id AS version_id, v.version_number, v.default_language,
           (SELECT array_agg(l.language ORDER BY l.language) FROM email.template_languages l
             WHERE l.workspace_id = t.workspace_id AND l.version_id = v.id) AS languages
         FROM unnest($1::text[], $2::text[]) AS p(workspace_id, ref)
         JOIN email.templates t ON t.workspace_id = p.workspace_id
           AND (CASE WHEN p.ref LIKE 'emt\\_%' THEN t.id = p.ref ELSE t.slug = p.ref END)
         LEFT JOIN email.template_versions v
           ON v.workspace_id = t.workspace_id AND v.id = t.live_version_id`,
        [pairs.map(([workspaceId]) => workspaceId), pairs.map(([, ref]) => ref)],
      ),
    );
  }

  /**
   * One template with one of its published versions in place of the live one (a draft never
   * matches: its content still changes, so it is never pinned or compiled into the cache).
   */
  async withVersion(
    workspaceId: string,
    templateId: string,
    versionId: string,
    runner: SqlRunner = this.reads,
  ): Promise<LiveTemplateRow | undefined> {
    return rowsOf<LiveTemplateRow>(
      await runner.query(
        `SELECT t.id, t.slug, t.category, t.on_missing_language, t.language_source_required,
           v.id AS version_id, v.version_number, v.default_language,
           (SELECT array_agg(l.language ORDER BY l.language) FROM email.template_languages l
             WHERE l.workspace_id = t.workspace_id AND l.version_id = v.id) AS languages
         FROM email.templates t
         LEFT JOIN email.template_versions v ON v.workspace_id = t.workspace_id
           AND v.template_id = t.id AND v.id = $3 AND v.status = 'published'
         WHERE t.workspace_id = $1 AND t.id = $2`,
        [workspaceId, templateId, versionId],
      ),
    )[0];
  }

  /** The content of each (version, language) pair, in one query. */
  async contents(
    workspaceId: string,
    pairs: Array<{ versionId: string; language: string }>,
    runner: SqlRunner = this.reads,
  ): Promise<StoredLanguageContent[]> {
    return rowsOf(
      await runner.query(
        `SELECT l.version_id, l.language, l.subject, l.preview_text, l.html, l.text
         FROM email.template_languages l
         JOIN unnest($2::text[], $3::text[]) AS p(version_id, language)
           ON p.version_id = l.version_id AND p.language = l.language
         WHERE l.workspace_id = $1`,
        [workspaceId, pairs.map((pair) => pair.versionId), pairs.map((pair) => pair.language)],
      ),
    );
  }
}
