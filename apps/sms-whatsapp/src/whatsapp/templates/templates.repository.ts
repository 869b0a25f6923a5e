import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListWhatsAppTemplatesRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { isTemplateId, LANGUAGE_COLUMNS, TEMPLATE_COLUMNS, TEMPLATE_FROM } from './template-rows';
import type { LanguageRow, TemplateRow, VersionRow } from './template-rows';

const LANGUAGES = 'sms_whatsapp.whatsapp_template_languages';
const VERSIONS = 'sms_whatsapp.whatsapp_template_versions';

/** Named reads of templates, versions and languages; every one is scoped by workspace. */
@Injectable()
export class WhatsAppTemplatesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The templates a ref names: one by id, or one per account holding the slug. */
  async findByRef(
    workspaceId: string,
    ref: string,
    businessAccountId?: string,
  ): Promise<TemplateRow[]> {
    const params: unknown[] = [workspaceId, ref];
    let where = `t.workspace_id = $1 AND ${isTemplateId(ref) ? 't.id' : 't.slug'} = $2`;
    if (businessAccountId !== undefined) {
      params.push(businessAccountId);
      where += ' AND t.business_account_id = $3';
    }
    return rowsOf<TemplateRow>(
      await this.reads.query(
        `SELECT ${TEMPLATE_COLUMNS} FROM ${TEMPLATE_FROM} WHERE ${where} ORDER BY t.created_at, t.id`,
        params,
      ),
    );
  }

  list(
    workspaceId: string,
    request: ListWhatsAppTemplatesRequest,
    cursors: CursorCodec,
  ): Promise<Page<TemplateRow>> {
    const params: unknown[] = [workspaceId];
    let where = 't.workspace_id = $1';
    const add = (condition: (n: string) => string, value: unknown) => {
      params.push(value);
      where += ` AND ${condition(`$${params.length}`)}`;
    };
    // Every synced template is the workspace's own: a `system` filter matches none.
    if (request.scope === 'system') where += ' AND false';
    if (request.waba !== undefined) add((n) => `a.waba = ${n}`, request.waba);
    if (request.status?.length) add((n) => `t.status = ANY(${n}::text[])`, request.status);
    if (request.category !== undefined)
      add((n) => `t.category = ${n}`, request.category.toLowerCase());
    if (request.q !== undefined)
      add(
        (n) => `(t.slug ILIKE ${n} OR t.name ILIKE ${n} OR coalesce(t.description, '') ILIKE ${n})`,
        `%${escapeLike(request.q)}%`,
      );
    return paginate<TemplateRow>(
      this.reads,
      {
        from: TEMPLATE_FROM,
        select: TEMPLATE_COLUMNS,
        where: { sql: where, params },
        filters: {
          workspaceId,
          waba: request.waba ?? null,
          status: request.status ?? null,
          scope: request.scope ?? null,
          category: request.category ?? null,
          q: request.q ?? null,
        },
        sorts: { created_at: { column: 't.created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 't.id',
      },
      pageOf(request),
      cursors,
    );
  }

  /** The languages of these versions (a page's live versions, or one version's). */
  async languages(versionIds: readonly string[]): Promise<LanguageRow[]> {
    if (versionIds.length === 0) return [];
    return rowsOf<LanguageRow>(
      await this.reads.query(
        `SELECT ${LANGUAGE_COLUMNS} FROM ${LANGUAGES} WHERE version_id = ANY($1::text[]) ORDER BY language`,
        [versionIds],
      ),
    );
  }

  async language(versionId: string, language: string): Promise<LanguageRow | undefined> {
    const rows = rowsOf<LanguageRow>(
      await this.reads.query(
        `SELECT ${LANGUAGE_COLUMNS} FROM ${LANGUAGES} WHERE version_id = $1 AND language = $2`,
        [versionId, language],
      ),
    );
    return rows[0];
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
        from: VERSIONS,
        select: 'id, template_id, number, status, created_at',
        where: { sql: 'workspace_id = $1 AND template_id = $2', params: [workspaceId, templateId] },
        filters: { workspaceId, templateId },
        sorts: { number: { column: 'number', type: 'numeric' } },
        defaultSort: 'number',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      pageOf(request),
      cursors,
    );
  }

  async version(
    workspaceId: string,
    templateId: string,
    versionId: string,
  ): Promise<VersionRow | undefined> {
    const rows = rowsOf<VersionRow>(
      await this.reads.query(
        `SELECT id, template_id, number, status, created_at FROM ${VERSIONS}
         WHERE workspace_id = $1 AND template_id = $2 AND id = $3`,
        [workspaceId, templateId, versionId],
      ),
    );
    return rows[0];
  }
}

function pageOf(request: PageRequest): PageRequest {
  return {
    limit: request.limit,
    starting_after: request.starting_after,
    ending_before: request.ending_before,
  };
}
