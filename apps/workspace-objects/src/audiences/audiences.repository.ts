import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ListAudiencesRequest } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { CONTACT_COLUMNS } from '../contacts/contacts.repository';
import type { ContactRow } from '../contacts/contacts.repository';

const AUDIENCE_COLUMNS = 'id, workspace_id, name, description, type, created_at, updated_at';

export interface AudienceRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  type: 'static';
  created_at: Date;
  updated_at: Date;
}

export type MemberRow = ContactRow & { joined_at: Date };

/** Named queries over audiences and their members; every one is scoped by workspace. */
@Injectable()
export class AudiencesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('workspace_objects') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  list(
    workspaceId: string,
    request: ListAudiencesRequest,
    cursors: CursorCodec,
  ): Promise<Page<AudienceRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    if (request.q !== undefined) {
      params.push(`%${escapeLike(request.q.toLowerCase())}%`);
      where += ' AND lower(name) LIKE $2';
    }
    return paginate<AudienceRow>(
      this.reads,
      {
        from: 'workspace_objects.audiences',
        select: AUDIENCE_COLUMNS,
        where: { sql: where, params },
        filters: { workspaceId, q: request.q },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
    lock = false,
  ): Promise<AudienceRow | undefined> {
    const rows = rowsOf<AudienceRow>(
      await runner.query(
        `SELECT ${AUDIENCE_COLUMNS} FROM workspace_objects.audiences
         WHERE workspace_id = $1 AND id = $2${lock ? ' FOR SHARE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  async insert(
    runner: SqlRunner,
    row: Pick<AudienceRow, 'id' | 'workspace_id' | 'name' | 'description'>,
  ): Promise<AudienceRow> {
    const rows = rowsOf<AudienceRow>(
      await runner.query(
        `INSERT INTO workspace_objects.audiences (id, workspace_id, name, description)
         VALUES ($1, $2, $3, $4) RETURNING ${AUDIENCE_COLUMNS}`,
        [row.id, row.workspace_id, row.name, row.description],
      ),
    );
    return rows[0];
  }

  async update(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    changes: { name?: string; description?: string | null },
  ): Promise<AudienceRow | undefined> {
    const rows = rowsOf<AudienceRow>(
      await runner.query(
        `UPDATE workspace_objects.audiences SET
           name = COALESCE($3, name),
           description = CASE WHEN $4 THEN $5 ELSE description END,
           updated_at = clock_timestamp()
         WHERE workspace_id = $1 AND id = $2 RETURNING ${AUDIENCE_COLUMNS}`,
        [
          workspaceId,
          id,
          changes.name ?? null,
          'description' in changes,
          changes.description ?? null,
        ],
      ),
    );
    return rows[0];
  }

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        'DELETE FROM workspace_objects.audiences WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Of these ids, those that are not audiences (or contacts) of the workspace; the others are
   * locked against deletion until the transaction ends.
   */
  async missing(
    runner: SqlRunner,
    workspaceId: string,
    ids: string[],
    table: 'audiences' | 'contacts' = 'audiences',
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = rowsOf<{ id: string }>(
      await runner.query(
        `SELECT id FROM workspace_objects.${table} WHERE workspace_id = $1 AND id = ANY($2::text[])
         FOR SHARE`,
        [workspaceId, ids],
      ),
    );
    const known = new Set(found.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  /** Every contact into every audience; existing members keep their join time. One statement. */
  async addMembers(
    runner: SqlRunner,
    workspaceId: string,
    audienceIds: string[],
    contactIds: string[],
  ): Promise<void> {
    if (audienceIds.length === 0 || contactIds.length === 0) return;
    await runner.query(
      `INSERT INTO workspace_objects.audience_members (audience_id, contact_id, workspace_id)
       SELECT a, c, $1 FROM unnest($2::text[]) a CROSS JOIN unnest($3::text[]) WITH ORDINALITY AS t(c, n)
       ORDER BY n
       ON CONFLICT (audience_id, contact_id) DO NOTHING`,
      [workspaceId, audienceIds, contactIds],
    );
  }

  async removeMembers(
    runner: SqlRunner,
    workspaceId: string,
    audienceId: string,
    contactIds: string[],
  ): Promise<void> {
    await runner.query(
      `DELETE FROM workspace_objects.audience_members
       WHERE workspace_id = $1 AND audience_id = $2 AND contact_id = ANY($3::text[])`,
      [workspaceId, audienceId, contactIds],
    );
  }

  /** Members, most recently joined first; `q` over email and phone digits. */
  members(
    workspaceId: string,
    audienceId: string,
    request: ListAudiencesRequest,
    cursors: CursorCodec,
  ): Promise<Page<MemberRow>> {
    const params: unknown[] = [workspaceId, audienceId];
    let where = 'm.workspace_id = $1 AND m.audience_id = $2';
    if (request.q !== undefined) {
      params.push(`%${escapeLike(request.q.toLowerCase())}%`);
      const digits = request.q.replace(/\D/g, '');
      where += ` AND (c.email LIKE $3${digits ? ` OR c.phone_number LIKE $${params.push(`%${digits}%`)}` : ''})`;
    }
    return paginate<MemberRow>(
      this.reads,
      {
        from: `workspace_objects.audience_members m
               JOIN workspace_objects.contacts c ON c.id = m.contact_id`,
        select: `${CONTACT_COLUMNS.split(', ')
          .map((column) => `c.${column}`)
          .join(', ')}, m.joined_at`,
        where: { sql: where, params },
        filters: { workspaceId, audienceId, q: request.q },
        sorts: { joined_at: { column: 'm.joined_at', type: 'timestamptz' } },
        defaultSort: 'joined_at',
        defaultOrder: 'desc',
        idColumn: 'm.contact_id',
      },
      request,
      cursors,
    );
  }

  /**
   * A broadcast snapshot's page: members in contact-id order after `after` that joined before
   * `joinedBefore` (the primary key (audience_id, contact_id) serves the keyset).
   */
  snapshotMembers(
    workspaceId: string,
    audienceId: string,
    page: { limit: number; after?: string; joinedBefore?: string; withFields: boolean },
  ): Promise<ContactRow[]> {
    const columns = page.withFields
      ? CONTACT_COLUMNS.split(', ')
          .map((column) => `c.${column}`)
          .join(', ')
      : 'c.id, c.email';
    return this.reads.query(
      `SELECT ${columns} FROM workspace_objects.audience_members m
       JOIN workspace_objects.contacts c ON c.id = m.contact_id
       WHERE m.audience_id = $2 AND m.workspace_id = $1
         AND ($3::text IS NULL OR m.contact_id > $3)
         AND ($4::timestamptz IS NULL OR m.joined_at < $4)
       ORDER BY m.contact_id LIMIT $5`,
      [workspaceId, audienceId, page.after ?? null, page.joinedBefore ?? null, page.limit],
    ) as Promise<ContactRow[]>;
  }
}
