import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListEmailTemplatesRequest, PageRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { TemplateRow } from './template.rows';

/**
 * A template with what its reads show: the draft's revision and default language, the live
 * version's number, and each language's content hash in the draft and the live version (the
 * per-language states and `available_languages` derive from them).
 */
const TEMPLATE_VIEW = `
  SELECT t.id, t.workspace_id, t.slug, t.name, t.description, t.category, t.source,
    t.on_missing_language, t.language_source_required, t.draft_version_id, t.live_version_id,
    t.last_submitted_at, t.created_at, t.updated_at, d.revision, d.default_language,
    lv.version_number AS live_version_number,
    (SELECT coalesce(jsonb_object_agg(l.language, l.content_hash), '{}') FROM email.template_languages l
      WHERE l.workspace_id = t.workspace_id AND l.version_id = t.draft_version_id) AS draft_languages,
    (SELECT coalesce(jsonb_object_agg(l.language, l.content_hash), '{}') FROM email.template_languages l
      WHERE l.workspace_id = t.workspace_id AND l.version_id = t.live_version_id) AS live_languages,
    (SELECT coalesce(array_agg(DISTINCT l.language), '{}') FROM email.template_languages l
      JOIN email.template_versions v ON v.id = l.version_id
      WHERE v.workspace_id = t.workspace_id AND v.template_id = t.id AND v.status = 'published'
    ) AS published_languages
  FROM email.templates t
  JOIN email.template_versions d ON d.id = t.draft_version_id
  LEFT JOIN email.template_versions lv ON lv.id = t.live_version_id`;

/** `emt_…` is an id; anything else a slug (slugs may not start with `emt_`). */
export function isTemplateId(ref: string): boolean {
  return ref.startsWith('emt_');
}

/** Named queries over email.templates, template_versions and template_languages; all by workspace. */
@Injectable()
export class TemplatesRepository {
  readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  async find(workspaceId: string, ref: string, runner = this.reads) {
    const column = isTemplateId(ref) ? 't.id' : 't.slug';
    return rowsOf<TemplateRow>(
      await runner.query(`${TEMPLATE_VIEW} WHERE t.workspace_id = $1 AND ${column} = $2`, [
        workspaceId,
        ref,
      ]),
    )[0];
  }

  /** The template's row locked for a write (its draft and live version stay put until commit). */
  async lock(runner: SqlRunner, workspaceId: string, ref: string) {
    const column = isTemplateId(ref) ? 'id' : 'slug';
    return rowsOf<{ id: string; draft_version_id: string; live_version_id: string | null }>(
      await runner.query(
        `SELECT id, draft_version_id, live_version_id FROM email.templates
         WHERE workspace_id = $1 AND ${column} = $2 FOR UPDATE`,
        [workspaceId, ref],
      ),
    )[0];
  }

  /** A page of the workspace's templates, newest first, then their views in page order. */
  async list(
    workspaceId: string,
    request: ListEmailTemplatesRequest,
    cursors: CursorCodec,
  ): Promise<Page<TemplateRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    for (const field of ['category', 'source'] as const) {
      if (request[field] === undefined) continue;
      params.push(request[field]);
      where += ` AND ${field} = $${params.length}`;
    }
    // This deployment ships no built-in `system` templates: a theme or scope=system finds none.
    if (request.scope === 'system' || request.theme !== undefined) where += ' AND false';
    if (request.q) {
      params.push(`%${escapeLike(request.q.toLowerCase())}%`);
      const p = `$${params.length}`;
      where += ` AND (lower(slug) LIKE ${p} OR lower(name) LIKE ${p} OR lower(coalesce(description, '')) LIKE ${p})`;
    }
    const page = await paginate<{ id: string }>(
      this.reads,
      {
        from: 'email.templates',
        select: 'id, created_at',
        where: { sql: where, params },
        filters: {
          workspaceId,
          scope: request.scope ?? null,
          category: request.category ?? null,
          source: request.source ?? null,
          theme: request.theme ?? null,
          q: request.q ?? null,
        },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      pageOf(request),
      cursors,
    );
    const ids = page.data.map((row) => row.id);
    const rows = ids.length
      ? rowsOf<TemplateRow>(
          await this.reads.query(`${TEMPLATE_VIEW} WHERE t.workspace_id = $1 AND t.id = ANY($2)`, [
            workspaceId,
            ids,
          ]),
        )
      : [];
    const byId = new Map(rows.map((row) => [row.id, row]));
    return { ...page, data: ids.flatMap((id) => byId.get(id) ?? []) };
  }

  async slugTaken(runner: SqlRunner, workspaceId: string, slugs: string[]): Promise<Set<string>> {
    const rows = rowsOf<{ slug: string }>(
      await runner.query(
        'SELECT slug FROM email.templates WHERE workspace_id = $1 AND slug = ANY($2)',
        [workspaceId, slugs],
      ),
    );
    return new Set(rows.map((row) => row.slug));
  }

  async insertTemplate(runner: SqlRunner, row: Omit<TemplateInsert, never>): Promise<void> {
    await runner.query(
      `INSERT INTO email.templates (id, workspace_id, slug, name, description, category, source,
         on_missing_language, language_source_required, draft_version_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.id,
        row.workspace_id,
        row.slug,
        row.name,
        row.description,
        row.category,
        row.source,
        row.on_missing_language,
        row.language_source_required,
        row.draft_version_id,
      ],
    );
  }

  async updateTemplate(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    changes: Partial<
      Pick<
        TemplateRow,
        | 'name'
        | 'description'
        | 'on_missing_language'
        | 'language_source_required'
        | 'draft_version_id'
        | 'live_version_id'
      >
    > & { submitted?: boolean },
  ): Promise<void> {
    const sets = ['updated_at = now()'];
    const params: unknown[] = [workspaceId, id];
    for (const [column, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      if (column === 'submitted') {
        sets.push('last_submitted_at = now()');
        continue;
      }
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    await runner.query(
      `UPDATE email.templates SET ${sets.join(', ')} WHERE workspace_id = $1 AND id = $2`,
      params,
    );
  }

  async deleteTemplate(runner: SqlRunner, workspaceId: string, id: string): Promise<void> {
    await runner.query('DELETE FROM email.templates WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      id,
    ]);
  }
}

export interface TemplateInsert {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string | null;
  category: string;
  source: string;
  on_missing_language: string;
  language_source_required: boolean;
  draft_version_id: string;
}

export function pageOf(request: PageRequest): PageRequest {
  return {
    limit: request.limit,
    starting_after: request.starting_after,
    ending_before: request.ending_before,
  };
}
