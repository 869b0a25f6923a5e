import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PageRequest } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { LanguageRow, VersionRow } from './template.rows';
import { pageOf } from './templates.repository';

const VERSION_COLUMNS = `id, workspace_id, template_id, status, version_number, revision,
  default_language, variables, updated_by, created_at, published_at,
  (SELECT coalesce(array_agg(l.language ORDER BY l.language), '{}') FROM email.template_languages l
    WHERE l.workspace_id = v.workspace_id AND l.version_id = v.id) AS languages`;

const LANGUAGE_COLUMNS =
  'version_id, workspace_id, language, subject, preview_text, html, text, revision, content_hash, updated_at';

/** Named queries over email.template_versions and template_languages; all by workspace. */
@Injectable()
export class TemplateVersionsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async insertVersion(
    runner: SqlRunner,
    row: Pick<VersionRow, 'id' | 'workspace_id' | 'template_id' | 'default_language'> & {
      revision?: number;
      updated_by: unknown;
    },
  ): Promise<void> {
    await runner.query(
      `INSERT INTO email.template_versions (id, workspace_id, template_id, status, revision,
         default_language, updated_by) VALUES ($1, $2, $3, 'draft', $4, $5, $6)`,
      [
        row.id,
        row.workspace_id,
        row.template_id,
        row.revision ?? 1,
        row.default_language,
        JSON.stringify(row.updated_by),
      ],
    );
  }

  async findVersion(
    workspaceId: string,
    templateId: string,
    versionId: string,
    runner = this.reads,
  ) {
    return rowsOf<VersionRow>(
      await runner.query(
        `SELECT ${VERSION_COLUMNS} FROM email.template_versions v
         WHERE workspace_id = $1 AND template_id = $2 AND id = $3`,
        [workspaceId, templateId, versionId],
      ),
    )[0];
  }

  listVersions(
    workspaceId: string,
    templateId: string,
    request: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<VersionRow>> {
    return paginate<VersionRow>(
      this.reads,
      {
        from: 'email.template_versions v',
        select: VERSION_COLUMNS,
        where: { sql: 'workspace_id = $1 AND template_id = $2', params: [workspaceId, templateId] },
        filters: { workspaceId, templateId },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      pageOf(request),
      cursors,
    );
  }

  /** Moves the draft's revision on (and its editor and default language); returns the new one. */
  async touchDraft(
    runner: SqlRunner,
    workspaceId: string,
    versionId: string,
    changes: { updated_by: unknown; default_language?: string; variables?: string[] },
  ): Promise<number> {
    const rows = rowsOf<{ revision: number }>(
      await runner.query(
        `UPDATE email.template_versions SET revision = revision + 1, updated_by = $3,
           default_language = coalesce($4, default_language),
           variables = coalesce($5::jsonb, variables)
         WHERE workspace_id = $1 AND id = $2 RETURNING revision`,
        [
          workspaceId,
          versionId,
          JSON.stringify(changes.updated_by),
          changes.default_language ?? null,
          changes.variables ? JSON.stringify(changes.variables) : null,
        ],
      ),
    );
    return rows[0].revision;
  }

  /** Freezes the draft as the template's next published version, with its variables. */
  async publish(
    runner: SqlRunner,
    workspaceId: string,
    versionId: string,
    variables: string[],
  ): Promise<void> {
    await runner.query(
      `UPDATE email.template_versions v SET status = 'published', published_at = now(),
         variables = $3, version_number = 1 + coalesce((SELECT max(version_number)
           FROM email.template_versions p WHERE p.workspace_id = $1 AND p.template_id = v.template_id), 0)
       WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, versionId, JSON.stringify(variables)],
    );
  }

  async languages(workspaceId: string, versionId: string, runner = this.reads) {
    return rowsOf<LanguageRow>(
      await runner.query(
        `SELECT ${LANGUAGE_COLUMNS} FROM email.template_languages
         WHERE workspace_id = $1 AND version_id = $2 ORDER BY language`,
        [workspaceId, versionId],
      ),
    );
  }

  /** Writes languages (new ones at revision 1, changed ones one revision on); returns them. */
  async saveLanguages(
    runner: SqlRunner,
    workspaceId: string,
    versionId: string,
    languages: Array<Omit<LanguageRow, 'version_id' | 'workspace_id' | 'revision' | 'updated_at'>>,
  ): Promise<LanguageRow[]> {
    if (languages.length === 0) return [];
    return rowsOf<LanguageRow>(
      await runner.query(
        `INSERT INTO email.template_languages (version_id, workspace_id, language, subject,
           preview_text, html, text, content_hash)
         SELECT $1, $2, x.language, x.subject, x.preview_text, x.html, x.text, x.content_hash
         FROM jsonb_to_recordset($3::jsonb) AS x(language text, subject text, preview_text text,
           html text, text text, content_hash text)
         ON CONFLICT (version_id, language) DO UPDATE SET subject = excluded.subject,
           preview_text = excluded.preview_text, html = excluded.html, text = excluded.text,
           content_hash = excluded.content_hash, updated_at = now(),
           revision = email.template_languages.revision + 1
         RETURNING ${LANGUAGE_COLUMNS}`,
        [versionId, workspaceId, JSON.stringify(languages)],
      ),
    );
  }

  async deleteLanguages(
    runner: SqlRunner,
    workspaceId: string,
    versionId: string,
    languages: string[] | 'all',
  ): Promise<number> {
    const rows = rowsOf(
      await runner.query(
        `DELETE FROM email.template_languages WHERE workspace_id = $1 AND version_id = $2
           AND ($3::text[] IS NULL OR language = ANY($3)) RETURNING language`,
        [workspaceId, versionId, languages === 'all' ? null : languages],
      ),
    );
    return rows.length;
  }
}
